import type { BodyReader } from '@fieldhouse/http';
import type { FieldErrors, ProblemError } from '@fieldhouse/problem';
import {
  claimNonce,
  findInviteByCode,
  markCheckedIn,
  storedOutcome,
  storeOutcome,
  type CheckedInRow,
  type Scanner,
} from '../data/attendance.ts';
import type { Db } from '../data/tx.ts';
import { requireAccess } from './access.ts';
import { normalizeCode } from './codes.ts';
import type { EventsContext, ScanActor } from './context.ts';
import { problems } from './problems.ts';

/** The invitee as a check-in result shows it. */
export interface ScannedInvite {
  id: string;
  nom: string;
  type_invite: string;
}

/**
 * What a scan of a `code_unique` did, in the manner of pretix's check-in API:
 * - `checked_in`: the invitee was absent and is now present;
 * - `already_checked_in`: present already (when and by whom are given; nothing changed);
 * - `unknown_code`: no invite anywhere has this code;
 * - `wrong_event`: the code belongs to another event (which one is not revealed);
 * - `revoked`: the invite was revoked by the organiser.
 * This is what a nonce keeps (migration 008), so a replay gives the same answer.
 */
export type CheckinOutcome =
  | { result: 'checked_in'; invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }
  | { result: 'already_checked_in'; invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }
  | { result: 'unknown_code' }
  | { result: 'wrong_event' }
  | { result: 'revoked'; invite: ScannedInvite };

/** One scan as the scanner sends it (parsed): the code, and optionally who, where and when. */
export interface Scan {
  code_unique: string;
  /** Client scan id: the same nonce counts once per event. */
  nonce?: string;
  scanned_at?: Date;
  device?: string;
  scanne_par?: string;
}

/** What one scan did, and whether it is the stored outcome of an earlier scan with its nonce. */
export interface ScanResult {
  outcome: CheckinOutcome;
  replayed: boolean;
}

/** An item of an offline batch: a parsed scan, or the fields that made it invalid. */
export type BatchItem = { scan: Scan } | { nonce: string | null; errors: FieldErrors };

/** One result of an offline batch: the item's index and nonce, and what the scan did or why it is invalid. */
export type BatchResult = { index: number; nonce: string | null } & (ScanResult | { invalid: ProblemError });

/**
 * The scanner of a change: `scanne_par` as given, else the actor's name (or e-mail), or the
 * scanner device's name; device as given, else the User-Agent (a scanner device's name).
 */
export function scannerOf(
  actor: ScanActor,
  given: { scanne_par?: string; device?: string; scanned_at?: Date },
): Scanner {
  if ('device' in actor)
    return {
      scanne_par: given.scanne_par || actor.device.name,
      userId: null,
      userName: null,
      deviceId: actor.device.id,
      device: given.device ?? actor.device.name,
      scannedAt: given.scanned_at ?? null,
    };
  return {
    scanne_par: given.scanne_par || actor.name || actor.email,
    userId: actor.userId,
    userName: actor.name,
    deviceId: null,
    device: given.device ?? actor.userAgent ?? null,
    scannedAt: given.scanned_at ?? null,
  };
}

const emptyCode = () =>
  problems.invalid({ detail: 'code_unique is empty.', errors: { code_unique: ['code_unique is empty'] } });

/** The sentence of a successful check-in (docs/events.md, "Check-in"). */
export const checkedInMessage = (o: { invite: ScannedInvite }): string => `${o.invite.nom} is checked in.`;

/**
 * The problem a refused check-in answers (docs/events.md, "Check-in"): 409
 * `already_checked_in` with `invite`, `checked_in_at`, `scanne_par` of the first scan; 404
 * `unknown_code`; 422 `wrong_event`; 409 `revoked` with `invite`; each with its `result`.
 */
export function refusalOf(o: Exclude<CheckinOutcome, { result: 'checked_in' }>): ProblemError {
  switch (o.result) {
    case 'already_checked_in':
      return problems.alreadyCheckedIn(o);
    case 'unknown_code':
      return problems.unknownCode();
    case 'wrong_event':
      return problems.wrongEvent();
    case 'revoked':
      return problems.revoked({ during: 'checkin', invite: o.invite });
  }
}

const checkedIn = (row: CheckedInRow): CheckinOutcome => ({
  result: 'checked_in',
  invite: { id: row.id, nom: row.nom, type_invite: row.type_invite },
  checked_in_at: row.checked_in_at.toISOString(),
  scanne_par: row.scanne_par,
});

/**
 * Checks an invite in by its code: the conditional UPDATE ({@link markCheckedIn}), so of two
 * concurrent scans of one code exactly one succeeds; when nothing changed, the invite holding
 * the code says why (the rules of docs/events.md, "Check-in": unknown code, another event,
 * revoked, already checked in). Marked absent or restored between the two: the scan is tried again.
 */
async function applyScan(
  db: Db,
  eventId: string,
  code: string,
  by: Scanner,
  nonce: string | null,
): Promise<CheckinOutcome> {
  for (;;) {
    const done = await markCheckedIn(db, eventId, code, by, nonce);
    if (done) return checkedIn(done);
    const found = await findInviteByCode(db, code);
    if (!found) return { result: 'unknown_code' };
    if (found.event_id !== eventId) return { result: 'wrong_event' };
    const invite = { id: found.id, nom: found.nom, type_invite: found.type_invite };
    if (found.revoked_at) return { result: 'revoked', invite };
    if (found.presence)
      return {
        result: 'already_checked_in',
        invite,
        checked_in_at: (found.checked_in_at ?? new Date()).toISOString(),
        scanne_par: found.scanne_par,
      };
  }
}

/**
 * One scan of a valid code in an event the actor may scan. Without nonce: one conditional
 * statement on the pool (and, only when it changed nothing, a read saying why), so a refused
 * scan costs no transaction. With a nonce: in one transaction that claims the nonce (an insert
 * into `checkin_nonces`) and stores the outcome, so a concurrent or later scan with it waits for
 * the first and gets its outcome again (`replayed`) without scanning.
 */
function scanOnce(
  ctx: EventsContext,
  actor: ScanActor,
  eventId: string,
  scan: Scan,
  code: string,
): Promise<ScanResult> {
  const by = scannerOf(actor, scan);
  const nonce = scan.nonce;
  if (!nonce)
    return applyScan(ctx.db, eventId, code, by, null).then((outcome) => ({ outcome, replayed: false }));
  return ctx.inTransaction(async (tx) => {
    if (!(await claimNonce(tx, eventId, nonce)))
      return { outcome: (await storedOutcome(tx, eventId, nonce)) as CheckinOutcome, replayed: true };
    const outcome = await applyScan(tx, eventId, code, by, nonce);
    await storeOutcome(tx, eventId, nonce, outcome);
    return { outcome, replayed: false };
  });
}

/** What `read` answers, or undefined when it throws (the body is invalid). */
function validOrUndefined<T>(read: BodyReader<T>): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Checks an invitee in by the scanned `code_unique` (docs/events.md, "Check-in"); exactly one
 * of concurrent scans of one code succeeds. Resolves with the outcome (`checked_in`, or a
 * refusal the HTTP edge answers with {@link refusalOf}) and whether it is the stored outcome of
 * an earlier scan with the same nonce (nothing changed). Hot path: a valid scan without nonce by
 * a user is group-committed with the scans arriving meanwhile, its access check in the same
 * statement; anything else, including every refusal, takes the full path, which says why.
 * Owner, staff, and the event's scanner devices (full path).
 * @throws problems.noSuch (404) unless owner, staff or a device of the event;
 * problems.invalid (422) for a bad body, or a code empty once spaces and dashes are removed.
 */
export async function checkIn(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; scan: BodyReader<Scan> },
): Promise<ScanResult> {
  const { actor, eventId } = cmd;
  // A valid scan without nonce takes the hot path, its access check in the same statement; an
  // invalid one is told 404 before 422 when the actor cannot see the event.
  const valid = validOrUndefined(cmd.scan);
  const hotCode = valid && !valid.nonce ? normalizeCode(valid.code_unique) : undefined;
  if (valid && hotCode && !('device' in actor)) {
    const done = await ctx.hotScans.submit({
      eventId,
      code: hotCode,
      by: scannerOf(actor, valid),
      staffUserId: actor.userId,
    });
    if (done) return { outcome: checkedIn(done), replayed: false };
  }
  const { eventId: scannedEventId } = await requireAccess(ctx, { actor, permission: 'event.scan', eventId });
  const scan = cmd.scan();
  const code = normalizeCode(scan.code_unique);
  if (!code) throw emptyCode();
  return scanOnce(ctx, actor, scannedEventId, scan, code);
}

/**
 * Applies offline scans in order (1 to 500), one result per item: its index and nonce, and what
 * {@link checkIn} would do with it, or, for an invalid item, the 422 problem naming its fields.
 * One bad scan never fails the others. `device` applies to the items that name none. Owner,
 * staff, and the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event.
 */
export async function checkInBatch(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; batch: BodyReader<{ device?: string; items: BatchItem[] }> },
): Promise<BatchResult[]> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  const batch = cmd.batch();
  const results: BatchResult[] = [];
  for (const [index, item] of batch.items.entries()) {
    const code = 'scan' in item ? normalizeCode(item.scan.code_unique) : undefined;
    if (!('scan' in item) || !code) {
      const nonce = 'scan' in item ? (item.scan.nonce ?? null) : item.nonce;
      const errors = 'scan' in item ? { code_unique: ['code_unique is empty'] } : item.errors;
      results.push({ index, nonce, invalid: problems.invalid({ detail: 'This scan is invalid.', errors }) });
      continue;
    }
    const scan = { ...(batch.device ? { device: batch.device } : {}), ...item.scan };
    results.push({
      index,
      nonce: scan.nonce ?? null,
      ...(await scanOnce(ctx, cmd.actor, eventId, scan, code)),
    });
  }
  return results;
}
