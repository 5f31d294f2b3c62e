import type { Db } from './tx.ts';

/** An invite as a scanner's offline copy needs it (migration 010: `changed_xid` says when it last changed). */
export interface OfflineInviteRow {
  id: string;
  nom: string;
  type_invite: string;
  code_unique: string;
  presence: boolean;
  checked_in_at: Date | null;
  scanne_par: string | null;
  revoked_at: Date | null;
  /** People the code admits (1 to 100) and how many of them came in (migration 009). */
  seats: number;
  arrived: number;
  /** Transaction id (xid8) of the last change, as text. */
  changed_xid: string;
}

/** The columns of {@link OfflineInviteRow}, `changed_xid` as text (node-postgres has no xid8 parser). */
const columns = (db: Db) => [
  'id',
  'nom',
  'type_invite',
  'code_unique',
  'presence',
  'checked_in_at',
  'scanne_par',
  'revoked_at',
  'seats',
  'arrived',
  db.raw('changed_xid::text AS changed_xid'),
];

/**
 * The current snapshot (`pg_current_snapshot()` as text, `xmin:xmax:xip,...`): which
 * transactions' changes a statement begun now sees. A change is "since" a snapshot when that
 * snapshot did not see it ({@link changedInvites}), whatever other transactions of the cluster
 * were open when it was taken.
 */
export async function currentSnapshot(db: Db): Promise<string> {
  const { rows } = (await db.raw('SELECT pg_current_snapshot()::text AS snapshot')) as {
    rows: Array<{ snapshot: string }>;
  };
  return rows[0]!.snapshot;
}

/** Where an invite stands in a page: its id and the transaction (xid8, as text) that last wrote it. */
export interface InviteKey {
  id: string;
  xid: string;
}

/** Keys of up to `limit` invites of the event with an id after `afterId` (null: from the first), by id. */
export async function inviteSnapshotKeys(
  db: Db,
  eventId: string,
  afterId: string | null,
  limit: number,
): Promise<InviteKey[]> {
  const q = db('invites')
    .select('id', db.raw('changed_xid::text AS xid'))
    .where('event_id', eventId)
    .orderBy('id')
    .limit(limit);
  if (afterId) q.andWhere('id', '>', afterId);
  return (await q) as InviteKey[];
}

/**
 * Keys of up to `limit` invites of the event changed by a transaction that the snapshot `since`
 * (`pg_snapshot` text) did not see, ordered by (changed_xid, id) after the key `after` (the last
 * row of the previous page), or from the start when it is null. An index-only read of
 * `invites_event_changes` for the most part: the rows themselves come from {@link invitesByIds}
 * for the invitees a scanner's answer has not rendered yet (domain/offline-list.ts).
 */
export async function changedInviteKeys(
  db: Db,
  eventId: string,
  since: string,
  after: InviteKey | null,
  limit: number,
): Promise<InviteKey[]> {
  // Ordered by the column (xid8), not by the text of the answer: "100" sorts before "99".
  const q = db('invites')
    .select('id', db.raw('changed_xid::text AS xid'))
    .where('event_id', eventId)
    .andWhereRaw('changed_xid >= pg_snapshot_xmin(?::pg_snapshot)', [since])
    .andWhereRaw('NOT pg_visible_in_snapshot(changed_xid, ?::pg_snapshot)', [since])
    .orderByRaw('invites.changed_xid, invites.id')
    .limit(limit);
  if (after) q.andWhereRaw('(changed_xid, id) > (?::xid8, ?::uuid)', [after.xid, after.id]);
  return (await q) as InviteKey[];
}

/** The invites with these ids, as they are now (a deleted one is left out), in no order. */
export async function invitesByIds(db: Db, ids: string[]): Promise<OfflineInviteRow[]> {
  if (!ids.length) return [];
  return (await db('invites')
    .select(columns(db))
    .whereRaw('id = ANY(?::uuid[])', [ids])) as OfflineInviteRow[];
}

/** Ids of the event's invites deleted by a transaction the snapshot `since` (`pg_snapshot` text) did not see. */
export async function deletedInvites(db: Db, eventId: string, since: string): Promise<string[]> {
  const rows = (await db('invite_deletions')
    .select('invite_id')
    .where('event_id', eventId)
    .andWhereRaw('deleted_xid >= pg_snapshot_xmin(?::pg_snapshot)', [since])
    .andWhereRaw('NOT pg_visible_in_snapshot(deleted_xid, ?::pg_snapshot)', [since])) as Array<{
    invite_id: string;
  }>;
  return rows.map((r) => r.invite_id);
}

/** Ids of the event's revoked invites (the revocation list of signed codes). */
export async function revokedInviteIds(db: Db, eventId: string): Promise<string[]> {
  const rows = (await db('invites')
    .select('id')
    .where('event_id', eventId)
    .whereNotNull('revoked_at')
    .orderBy('id')) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}
