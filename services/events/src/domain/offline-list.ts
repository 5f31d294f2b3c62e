import {
  changedInviteKeys,
  currentSnapshot,
  deletedInvites,
  inviteSnapshotKeys,
  revokedInviteIds,
} from '../data/offline.ts';
import { findInvite } from '../data/invites.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext, ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import type { JsonText, OfflineInvitee } from './offline-invitees.ts';
import { problems } from './problems.ts';

/** A page of the download: invitees by id, the next page's token, and at the end the changes cursor. */
export interface OfflineSnapshotPage {
  /** JSON array of {@link OfflineInvitee}, by id. */
  invitees: JsonText<OfflineInvitee[]>;
  /** Names the invitees' versions sent (not sent itself: the answer's ETag is made from it). */
  version: string;
  /** Token of the next page (opaque), or null on the last page. */
  next_page: string | null;
  /** On the last page: the cursor to read changes from (opaque); null before. */
  cursor: string | null;
  /** The event's Ed25519 public key (raw, base64url) when signed codes are on, else null. */
  public_key: string | null;
}

/** Changes since a cursor: invitees new or changed, ids deleted, and the next cursor. */
export interface OfflineChanges {
  /** JSON array of {@link OfflineInvitee}, oldest change first. */
  changes: JsonText<OfflineInvitee[]>;
  /** Names the invitees' versions sent (not sent itself: the answer's ETag is made from it). */
  version: string;
  deleted: string[];
  cursor: string;
  /** More changes wait: ask again at once with `cursor`. */
  more: boolean;
}

/** Page size of the download and of the changes: default and largest. */
const OFFLINE_PAGE = { default: 5000, max: 10_000 } as const;

/**
 * What a page token or cursor carries (base64url JSON, opaque to clients): `h` the database
 * snapshot the changes are read from (`pg_snapshot` text: the changes it did not see come next),
 * `a` the last invite id of a download page, `k` the last (transaction id, invite id) of a changes
 * page, `n` the snapshot the round of changes started at.
 */
interface Position {
  h: string;
  a?: string;
  k?: [string, string];
  n?: string;
}

const encode = (p: Position) => Buffer.from(JSON.stringify(p)).toString('base64url');

function decode(token: string, field: 'page' | 'cursor'): Position {
  const bad = () =>
    problems.invalid({ errors: { [field]: [`This ${field} was not given by this service: start again.`] } });
  let p: unknown;
  try {
    p = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const xid = (v: unknown) => typeof v === 'string' && /^\d{1,20}$/.test(v);
  const snapshot = (v: unknown) =>
    typeof v === 'string' && v.length <= 20_000 && /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/.test(v);
  const o = p as Partial<Position> | null;
  if (
    !o ||
    typeof o !== 'object' ||
    !snapshot(o.h) ||
    (o.a !== undefined && !(typeof o.a === 'string' && isUuid(o.a))) ||
    (o.n !== undefined && !snapshot(o.n)) ||
    (o.k !== undefined &&
      !(Array.isArray(o.k) && xid(o.k[0]) && typeof o.k[1] === 'string' && isUuid(o.k[1])))
  )
    throw bad();
  return o as Position;
}

/**
 * A page of the event's invitees for a scanner's offline copy (`GET .../checkin/snapshot`), by
 * id, `limit` at a time (1 to 10,000, default 5,000). The first page (no `page`) takes the
 * snapshot before it reads; the last page gives the changes cursor from it, so whatever changed
 * while the pages were read comes with the first changes. Owner, staff and the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event; problems.invalid
 * (422) for a page token this service did not give.
 */
export async function offlineSnapshot(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; page?: string; limit?: number },
): Promise<OfflineSnapshotPage> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  const at = cmd.page ? decode(cmd.page, 'page') : { h: await currentSnapshot(ctx.db) };
  const limit = Math.min(Math.max(cmd.limit ?? OFFLINE_PAGE.default, 1), OFFLINE_PAGE.max);
  const keys = await inviteSnapshotKeys(ctx.db, eventId, at.a ?? null, limit);
  const last = keys.length === limit ? keys.at(-1) : undefined;
  const { json, version } = await ctx.offlineInvitees.json(ctx.db, keys);
  return {
    invitees: json,
    version,
    next_page: last ? encode({ h: at.h, a: last.id }) : null,
    cursor: last ? null : encode({ h: at.h }),
    public_key: ctx.codeSigner ? ctx.codeSigner.publicKey(eventId) : null,
  };
}

/**
 * The event's invitees changed since `cursor` (`GET .../checkin/changes`): new, renamed,
 * checked in (anywhere), marked absent, revoked or restored (each in its present state), and the
 * ids of those deleted; at most `limit` (1 to 10,000) at a time, with `more` when the next cursor
 * has more at once. A change comes once, or twice when it committed while the round was being
 * read; applying it again changes nothing. Owner, staff and
 * the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event; problems.invalid
 * (422) for a cursor this service did not give.
 */
export async function offlineChanges(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; cursor: string; limit?: number },
): Promise<OfflineChanges> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  const at = decode(cmd.cursor, 'cursor');
  const limit = Math.min(Math.max(cmd.limit ?? OFFLINE_PAGE.default, 1), OFFLINE_PAGE.max);
  // The snapshot of this round, taken before reading: what it did not see is read next round (a
  // change committed between it and the read comes now and again then: applying it twice is
  // harmless). Exact whatever else the database runs: a change this snapshot saw is never read
  // again, one it did not see is never skipped.
  const next = at.n ?? (await currentSnapshot(ctx.db));
  const after = at.k ? { xid: at.k[0], id: at.k[1] } : null;
  const keys = await changedInviteKeys(ctx.db, eventId, at.h, after, limit);
  const { json: changes, version } = await ctx.offlineInvitees.json(ctx.db, keys);
  const last = keys.length === limit ? keys.at(-1) : undefined;
  if (last)
    return {
      changes,
      version,
      deleted: [],
      cursor: encode({ h: at.h, k: [last.xid, last.id], n: next }),
      more: true,
    };
  return {
    changes,
    version,
    deleted: await deletedInvites(ctx.db, eventId, at.h),
    cursor: encode({ h: next }),
    more: false,
  };
}

/**
 * What a scanner needs to check signed codes without the list (`GET .../checkin/keys`): the
 * algorithm, the event's public key (raw 32 bytes, base64url) and the ids of its revoked invites.
 * Owner, staff and the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event, or when signed codes
 * are off (no `EVENTS_CODE_SIGNING_SECRET`).
 */
export async function signingKeys(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string },
): Promise<{ algorithm: 'Ed25519'; public_key: string; revoked: string[] }> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  if (!ctx.codeSigner) throw problems.noSuch({ what: 'signedCodes' });
  return {
    algorithm: 'Ed25519',
    public_key: ctx.codeSigner.publicKey(eventId),
    revoked: await revokedInviteIds(ctx.db, eventId),
  };
}

/**
 * The signed form of an invite's code (`GET .../invites/{id}/signed-code`), for a badge or a
 * QR code that scanners check with the event's public key alone. Owner and staff.
 * @throws problems.noSuch (404) unless owner or staff, for an unknown invite, or when signed
 * codes are off.
 */
export async function signedCodeOf(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; inviteId: string },
): Promise<{ invite_id: string; signed_code: string; public_key: string }> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.read',
    eventId: cmd.eventId,
  });
  if (!ctx.codeSigner) throw problems.noSuch({ what: 'signedCodes' });
  const invite = isUuid(cmd.inviteId) ? await findInvite(ctx.db, eventId, cmd.inviteId) : undefined;
  if (!invite) throw problems.noSuch({ what: 'invite' });
  return {
    invite_id: invite.id,
    signed_code: ctx.codeSigner.sign(eventId, invite.id, invite.code_unique),
    public_key: ctx.codeSigner.publicKey(eventId),
  };
}
