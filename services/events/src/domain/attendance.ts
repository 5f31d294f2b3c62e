import type { BodyReader } from '@fieldhouse/http';
import { notFound, ProblemError, problemBody, type FieldErrors } from '@fieldhouse/problem';
import {
  arrivalsOf,
  latestCheckins,
  checkIn as checkInRow,
  oncePerNonce,
  setPresence as setPresenceRow,
  statsOf,
  type ArrivalBucket,
  type LatestCheckin,
  type Scanner,
} from '../data/attendance.ts';
import { eventOf, scannedEventIdOf } from './access.ts';
import { checkinAnswer, type CheckinAnswer } from './checkin.ts';
import { normalizeCode } from './codes.ts';
import { isDevice, type Actor, type EventsContext, type ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import { presenceMessage } from './presence.ts';
import type { EventStats } from './stats.ts';

/** One scan as the scanner sends it (parsed): the code, and optionally who, where and when. */
export interface Scan {
  code_unique: string;
  /** Client scan id: the same nonce counts once per event. */
  nonce?: string;
  scanned_at?: Date;
  device?: string;
  scanne_par?: string;
}

/** What one scan answered, and whether it is the stored answer of an earlier scan with its nonce. */
export type ScanAnswer = CheckinAnswer & { replayed: boolean };

/** An item of an offline batch: a parsed scan, or the fields that made it invalid. */
export type BatchItem = { scan: Scan } | { nonce: string | null; errors: FieldErrors };

/** One result of an offline batch: the item's index and nonce, and what the single endpoint would answer. */
export type BatchResult = { index: number; nonce: string | null; replayed: boolean; status: number } & Record<
  string,
  unknown
>;

const emptyCodeErrors = { code_unique: ['code_unique is empty'] };

/**
 * The scanner of a change: `scanne_par` as given, else the caller's name (or e-mail), or the
 * scanner device's name; device as given, else the User-Agent (a scanner device's name).
 */
function scannerOf(
  actor: ScanActor,
  given: { scanne_par?: string; device?: string; scanned_at?: Date },
): Scanner {
  if (isDevice(actor))
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

/**
 * Sets an invitee's presence (spec 3: "PUT presence with presence=true → present; response
 * success=true and a message naming the invitee as present"); every call is kept in the
 * history. Owner and staff. Resolves with the message.
 * @throws ProblemError 404 unless owner or staff, or when the event has no such invite; 409
 * `revoked` when marking a revoked invite present.
 */
export async function setPresence(
  ctx: EventsContext,
  cmd: {
    actor: Actor;
    eventId: string;
    inviteId: string;
    presence: BodyReader<{ presence: boolean; scanne_par?: string; device?: string; scanned_at?: Date }>;
  },
): Promise<{ message: string }> {
  const { event } = await eventOf(ctx, cmd.eventId, cmd.actor.userId);
  // An invite id that cannot exist is a 404 before any 422 about the body, as it always was.
  if (!isUuid(cmd.inviteId)) throw notFound('No invite with this id in this event.');
  const body = cmd.presence();
  const { presence } = body;
  const done = await setPresenceRow(ctx.db, event.id, cmd.inviteId, presence, scannerOf(cmd.actor, body));
  if (!done) throw notFound('No invite with this id in this event.');
  if (done === 'revoked')
    throw new ProblemError(409, 'This invite was revoked: it cannot be marked present.', { code: 'revoked' });
  return { message: presenceMessage(done.nom, presence, done.previous) };
}

/** What `read` answers, or undefined when it throws (the body is invalid). */
function validOrUndefined<T>(read: BodyReader<T>): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** One scan of a valid code in an event the caller may scan, once per nonce when it has one. */
function scanOnce(
  ctx: EventsContext,
  actor: ScanActor,
  eventId: string,
  scan: Scan,
  code: string,
): Promise<ScanAnswer> {
  const by = scannerOf(actor, scan);
  if (!scan.nonce)
    return checkInRow(ctx.db, eventId, code, by, null).then((o) => ({
      ...checkinAnswer(o),
      replayed: false,
    }));
  const nonce = scan.nonce;
  return oncePerNonce(ctx.db, eventId, nonce, async (trx) =>
    checkinAnswer(await checkInRow(trx, eventId, code, by, nonce)),
  );
}

/**
 * Checks an invitee in by the scanned `code_unique` (docs/events.md, "Check-in"); exactly one
 * of concurrent scans of one code succeeds. The answer is 200 `checked_in`, or a problem:
 * 409 `already_checked_in`, 404 `unknown_code`, 422 `wrong_event`, 409 `revoked`
 * (domain/checkin.ts). A repeated nonce gets the first answer again (`replayed`) and changes
 * nothing. Hot path: a scan without nonce is group-committed with the scans arriving meanwhile,
 * its access check in the same statement; anything else, including every refusal, takes the
 * full path, which says why. Owner, staff, and the event's scanner devices (full path).
 * @throws ProblemError 404 unless owner, staff or a device of the event; 422 when the code is
 * empty once spaces and dashes are removed.
 */
export async function checkIn(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; scan: BodyReader<Scan> },
): Promise<ScanAnswer> {
  const { actor, eventId } = cmd;
  // A valid scan without nonce takes the hot path, its access check in the same statement; an
  // invalid one is told 404 before 422 when the caller cannot see the event.
  const valid = validOrUndefined(cmd.scan);
  const hotCode = valid && !valid.nonce ? normalizeCode(valid.code_unique) : undefined;
  if (valid && hotCode && !isDevice(actor)) {
    const done = await ctx.hotScans.submit({
      eventId,
      code: hotCode,
      by: scannerOf(actor, valid),
      staffUserId: actor.userId,
    });
    if (done) return { ...checkinAnswer(done), replayed: false };
  }
  const scannedEventId = await scannedEventIdOf(ctx, eventId, actor);
  const scan = cmd.scan();
  const code = normalizeCode(scan.code_unique);
  if (!code)
    throw new ProblemError(422, 'code_unique is empty.', {
      code: 'validation_failed',
      errors: emptyCodeErrors,
    });
  return scanOnce(ctx, actor, scannedEventId, scan, code);
}

/**
 * Applies offline scans in order (1 to 500), one result per item: `{index, nonce, replayed,
 * status, ...body}` where `status` and the body are what {@link checkIn} would answer for that
 * scan; an invalid item gets status 422, `result: "invalid"` and `errors`. One bad scan never
 * fails the others. `device` applies to the items that name none. Owner, staff, and the
 * event's scanner devices.
 * @throws ProblemError 404 unless owner, staff or a device of the event.
 */
export async function checkInBatch(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string; batch: BodyReader<{ device?: string; items: BatchItem[] }> },
): Promise<BatchResult[]> {
  const scannedEventId = await scannedEventIdOf(ctx, cmd.eventId, cmd.actor);
  const batch = cmd.batch();
  const results: BatchResult[] = [];
  for (const [index, item] of batch.items.entries()) {
    const code = 'scan' in item ? normalizeCode(item.scan.code_unique) : undefined;
    if (!('scan' in item) || !code) {
      const nonce = 'scan' in item ? (item.scan.nonce ?? null) : item.nonce;
      const errors = 'scan' in item ? emptyCodeErrors : item.errors;
      results.push({
        index,
        nonce,
        replayed: false,
        ...problemBody(422, 'This scan is invalid.', { code: 'validation_failed', errors }),
        result: 'invalid',
      });
      continue;
    }
    const scan = { ...(batch.device ? { device: batch.device } : {}), ...item.scan };
    const answer = await scanOnce(ctx, cmd.actor, scannedEventId, scan, code);
    results.push({
      index,
      nonce: scan.nonce ?? null,
      replayed: answer.replayed,
      ...answer.body,
      status: answer.status,
    });
  }
  return results;
}

/**
 * The attendance statistics of spec 2.3 over the active (non-revoked) invites: `{total,
 * present, absent, taux}`, `taux` = floor(100 * present / total), 0 without invites. Owner,
 * staff, and the event's scanner devices.
 * @throws ProblemError 404 unless owner, staff or a device of the event.
 */
export async function eventStats(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string },
): Promise<EventStats> {
  const scannedEventId = await scannedEventIdOf(ctx, cmd.eventId, cmd.actor);
  return statsOf(ctx.db, scannedEventId);
}

/** How many of the latest check-ins the attendance answer lists. */
export const LATEST_CHECKINS = 20;

/**
 * The live attendance of an event (the console's attendance page): the statistics of spec 2.3
 * (`{total, present, absent, taux}`, one snapshot), arrivals per 10-minute window (UTC-aligned
 * starts, windows without arrivals left out) and the latest 20 check-ins, newest first, each with
 * who scanned (`scanne_par`, the scanner device, or the user). Owner and staff.
 * @throws ProblemError 404 unless owner or staff.
 */
export async function attendance(
  ctx: EventsContext,
  cmd: { userId: number; eventId: string },
): Promise<{ stats: EventStats; arrivals: ArrivalBucket[]; latest: LatestCheckin[] }> {
  const { event } = await eventOf(ctx, cmd.eventId, cmd.userId);
  const [stats, arrivals, latest] = await Promise.all([
    statsOf(ctx.db, event.id),
    arrivalsOf(ctx.db, event.id),
    latestCheckins(ctx.db, event.id, LATEST_CHECKINS),
  ]);
  return { stats, arrivals, latest };
}
