import { randomUUID } from 'node:crypto';
import type { Db, Tx } from './tx.ts';

/** An invite as the API shows it (list, detail, update). Times are ISO 8601 UTC. */
export interface Invite {
  id: string;
  event_id: string;
  nom: string;
  email: string;
  type_invite: string;
  code_unique: string;
  presence: boolean;
  checked_in_at: string | null;
  scanne_par: string | null;
  revoked: boolean;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
  /** People the code admits (docs/events.md, "Parties"), and how many of them arrived. */
  seats: number;
  arrived: number;
  /** The names of the party's people, when given (at most `seats`). */
  seat_names: string[] | null;
  /** The invitation e-mail was held back at import and not sent yet. */
  email_held: boolean;
}

export interface InviteInput {
  nom: string;
  email: string;
  type_invite: string;
  seats?: number;
  seat_names?: string[] | null;
  email_held?: boolean;
}

/** The row as stored: `seat_names` is JSON text on its way in. */
const stored = <T extends { seat_names?: string[] | null }>(input: T) =>
  input.seat_names === undefined
    ? input
    : { ...input, seat_names: input.seat_names ? JSON.stringify(input.seat_names) : null };

export interface InviteFilter {
  search?: string;
  type_invite?: string;
  presence?: boolean;
  revoked?: boolean;
}

/** The e-mail is already used by another invite of the same event. */
export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}

const COLUMNS = [
  'id',
  'event_id',
  'nom',
  'email',
  'type_invite',
  'code_unique',
  'presence',
  'checked_in_at',
  'scanne_par',
  'revoked_at',
  'created_at',
  'updated_at',
  'seats',
  'arrived',
  'seat_names',
  'email_held',
];

type Row = Omit<Invite, 'revoked' | 'checked_in_at' | 'revoked_at' | 'created_at' | 'updated_at'> & {
  checked_in_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Maps a row to the API shape. */
function toInvite(r: Row): Invite {
  return {
    ...r,
    checked_in_at: iso(r.checked_in_at),
    revoked: r.revoked_at !== null,
    revoked_at: iso(r.revoked_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/**
 * Inserts an invite with a `code_unique` from `drawCode` (drawn again in the unlikely case of a
 * collision with any event's code). Run it in the transaction that also writes the invitation
 * e-mail to the outbox.
 * @throws EmailTakenError when the event already has an invite with this e-mail (any case).
 */
export async function insertInvite(
  tx: Tx,
  eventId: string,
  input: InviteInput,
  drawCode: () => string,
): Promise<Invite> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = (await tx('invites')
      .insert({ id: randomUUID(), event_id: eventId, ...stored(input), code_unique: drawCode() })
      .onConflict()
      .ignore()
      .returning(COLUMNS)) as Row[];
    if (rows[0]) return toInvite(rows[0]);
    if (await emailTaken(tx, eventId, input.email)) throw new EmailTakenError(input.email);
  }
  throw new Error('could not draw a unique code in 5 attempts');
}

/** Whether another invite of the event (not `exceptId`) has this e-mail, case-insensitively. */
async function emailTaken(db: Db, eventId: string, email: string, exceptId?: string): Promise<boolean> {
  const q = db('invites')
    .first('id')
    .where('event_id', eventId)
    .whereRaw('lower(email) = ?', [email.toLowerCase()]);
  if (exceptId) q.whereNot('id', exceptId);
  return (await q) !== undefined;
}

/** Which of these (lower-case) e-mails the event's invites already use. */
export async function takenEmails(db: Db, eventId: string, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const rows = (await db('invites')
    .select(db.raw('lower(email) AS email'))
    .where('event_id', eventId)
    .whereRaw('lower(email) = ANY(?)', [emails])) as Array<{ email: string }>;
  return new Set(rows.map((r) => r.email));
}

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the event's invites ordered by `nom` then id, and the total matching the filter. */
export async function listInvites(
  db: Db,
  eventId: string,
  filter: InviteFilter,
  page: { page: number; per_page: number },
): Promise<{ data: Invite[]; total: number }> {
  const q = db('invites').where('event_id', eventId);
  if (filter.search) {
    const pattern = `%${likeEscape(filter.search)}%`;
    q.andWhere((w) =>
      w
        .whereILike('nom', pattern)
        .orWhereILike('email', pattern)
        .orWhere('code_unique', filter.search!.toUpperCase()),
    );
  }
  if (filter.type_invite) q.andWhere('type_invite', filter.type_invite);
  if (filter.presence !== undefined) q.andWhere('presence', filter.presence);
  if (filter.revoked !== undefined)
    q.andWhere(filter.revoked ? db.raw('revoked_at IS NOT NULL') : db.raw('revoked_at IS NULL'));
  const [{ count }] = (await q.clone().count({ count: '*' })) as [{ count: number }];
  const rows = (await q
    .select(COLUMNS)
    .orderBy([{ column: 'nom' }, { column: 'id' }])
    .limit(page.per_page)
    .offset((page.page - 1) * page.per_page)) as Row[];
  return { data: rows.map(toInvite), total: Number(count) };
}

/** The invite of this event, or undefined. */
export async function findInvite(db: Db, eventId: string, inviteId: string): Promise<Invite | undefined> {
  const row = (await db('invites').select(COLUMNS).where({ id: inviteId, event_id: eventId }).first()) as
    Row | undefined;
  return row ? toInvite(row) : undefined;
}

export interface InvitePatch {
  nom?: string;
  email?: string;
  type_invite?: string;
  revoked?: boolean;
  seats?: number;
  seat_names?: string[] | null;
}

/**
 * Updates the given fields; `revoked: true` revokes the invite (its code no longer checks in),
 * `false` restores it. Resolves with the new invite, or undefined when it does not exist.
 * @throws EmailTakenError when the new e-mail is used by another invite of the event.
 */
export async function updateInvite(
  db: Db,
  eventId: string,
  inviteId: string,
  patch: InvitePatch,
): Promise<Invite | undefined> {
  const { revoked, ...fields } = patch;
  const set: Record<string, unknown> = { ...stored(fields), updated_at: db.fn.now() };
  if (revoked === true) set.revoked_at = db.raw('coalesce(revoked_at, now())');
  if (revoked === false) set.revoked_at = null;
  try {
    const rows = (await db('invites')
      .where({ id: inviteId, event_id: eventId })
      .update(set)
      .returning(COLUMNS)) as Row[];
    return rows[0] ? toInvite(rows[0]) : undefined;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new EmailTakenError(patch.email ?? '');
    throw err;
  }
}

/**
 * The event's invites whose e-mail was held back at import, flagged as sent in the same
 * statement (run it in the transaction that queues their e-mails).
 */
export async function takeHeldInvites(tx: Tx, eventId: string): Promise<Invite[]> {
  const rows = (await tx('invites')
    .where({ event_id: eventId, email_held: true })
    .whereNull('revoked_at')
    .update({ email_held: false, updated_at: tx.fn.now() })
    .returning(COLUMNS)) as Row[];
  return rows.map(toInvite);
}

/** Deletes the invite with its history; resolves false when it did not exist. */
export async function deleteInvite(db: Db, eventId: string, inviteId: string): Promise<boolean> {
  return (await db('invites').where({ id: inviteId, event_id: eventId }).delete()) > 0;
}

/**
 * Inserts many invites in multi-row statements (bench seeding and bulk loads that send no
 * e-mail), each with a code from `drawCode`; resolves with their ids and codes.
 */
export async function insertInviteRows(
  db: Db,
  eventId: string,
  inputs: InviteInput[],
  drawCode: () => string,
  chunk = 1000,
): Promise<Array<{ id: string; code_unique: string }>> {
  const out: Array<{ id: string; code_unique: string }> = [];
  for (let i = 0; i < inputs.length; i += chunk) {
    const rows = inputs
      .slice(i, i + chunk)
      .map((input) => ({ id: randomUUID(), event_id: eventId, ...input, code_unique: drawCode() }));
    const inserted = (await db('invites').insert(rows).returning(['id', 'code_unique'])) as Array<{
      id: string;
      code_unique: string;
    }>;
    out.push(...inserted);
  }
  return out;
}
