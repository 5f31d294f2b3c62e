import type { BodyReader } from '@fieldhouse/http';
import { ProblemError, type FieldErrors } from '@fieldhouse/problem';
import {
  claimNonce,
  findInviteByCode,
  markCheckedIn,
  storedOutcome,
  storeOutcome,
  type CheckedInRow,
  type Scanner,
} from '../data/attendance.ts';
import { applyGateScan as countGateScan, type GateScanRow } from '../data/gate-scans.ts';
import { findGate, gatePresence, type GateRow } from '../data/gates.ts';
import type { Db } from '../data/tx.ts';
import { requireAccess } from './access.ts';
import { scannedCode } from './signed-codes.ts';
import type { EventsContext, ScanActor } from './context.ts';
import { problems } from './problems.ts';

/** The invitee as a check-in result shows it. */
interface ScannedInvite {
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
  | ({
      result: 'checked_in';
      invite: ScannedInvite;
      checked_in_at: string;
      scanne_par: string | null;
    } & Partial<Admitted & { direction: 'entry' }>)
  | ({ result: 'checked_out'; invite: ScannedInvite; direction: 'exit'; at: string } & Admitted)
  | {
      result: 'already_checked_in';
      invite: ScannedInvite;
      checked_in_at: string;
      scanne_par: string | null;
      gate?: GateRef;
      entered_at?: string | null;
      seats?: number;
      arrived?: number;
    }
  | { result: 'seats_exceeded'; invite: ScannedInvite; gate: GateRef; remaining: number; seats: number }
  | { result: 'no_reentry'; invite: ScannedInvite; gate: GateRef; exited_at: string | null }
  | { result: 'not_inside'; invite: ScannedInvite; gate: GateRef; inside: number }
  | { result: 'not_admitted'; invite: ScannedInvite; gate: GateRef }
  | { result: 'unknown_code' }
  | { result: 'wrong_event' }
  | { result: 'revoked'; invite: ScannedInvite };

/** The gate of a scan, as answers name it; null: the event's implicit entrance. */
type GateRef = { id: string; name: string } | null;

/**
 * What an admitting scan (entry or exit) adds to its answer (docs/events.md, "Gates",
 * "Parties"): the gate, how many people it let in or out, the party's seats and arrived people,
 * and how many of the party are inside through that gate now.
 */
interface Admitted {
  gate: GateRef;
  people: number;
  seats: number;
  arrived: number;
  inside: number;
}

/** One scan as the scanner sends it (parsed): the code, and optionally who, where and when. */
export interface Scan {
  code_unique: string;
  /** The gate (check-in list) scanned at; default: the device's gate, else the implicit entrance. */
  gate_id?: string;
  /** `entry` (default) or `exit`. */
  direction?: 'entry' | 'exit';
  /** People of the party the scan lets in or out; default: all who can. */
  people?: number;
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

/**
 * The sentence of a successful scan (docs/events.md, "Check-in", "Parties"): "Ada is checked
 * in.", for a party "3 of 5 arrived: Ada's party.", for an exit "Ada left through Hall.".
 */
export function checkedInMessage(
  o: Extract<CheckinOutcome, { result: 'checked_in' } | { result: 'checked_out' }>,
): string {
  if (o.result === 'checked_out') return `${o.invite.nom} left${o.gate ? ` through ${o.gate.name}` : ''}.`;
  if (o.seats !== undefined && o.seats > 1)
    return `${o.arrived} of ${o.seats} arrived: ${o.invite.nom}'s party.`;
  return `${o.invite.nom} is checked in.`;
}

/**
 * The problem a refused check-in answers (docs/events.md, "Check-in"): 409
 * `already_checked_in` with `invite`, `checked_in_at`, `scanne_par` of the first scan; 404
 * `unknown_code`; 422 `wrong_event`; 409 `revoked` with `invite`; each with its `result`.
 */
export function refusalOf(
  o: Exclude<CheckinOutcome, { result: 'checked_in' } | { result: 'checked_out' }>,
): ProblemError {
  switch (o.result) {
    case 'already_checked_in':
      return problems.alreadyCheckedIn(o);
    case 'seats_exceeded':
      return problems.seatsExceeded(o);
    case 'no_reentry':
      return problems.noReentry(o);
    case 'not_inside':
      return problems.notInside(o);
    case 'not_admitted':
      return problems.notAdmitted(o);
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
  direction: 'entry',
  gate: null,
  people: row.people,
  seats: row.seats,
  arrived: row.arrived,
  inside: row.arrived,
});

const gateRefOf = (gate: GateRow | null): GateRef => (gate ? { id: gate.id, name: gate.name } : null);

/** The answer of a gate scan that counted, from the row its statement returned. */
const atGate = (row: GateScanRow, direction: 'entry' | 'exit'): CheckinOutcome => {
  const invite = { id: row.id, nom: row.nom, type_invite: row.type_invite };
  const admitted = {
    gate: { id: row.gate_id, name: row.gate_name },
    people: row.people,
    seats: row.seats,
    arrived: row.arrived,
    inside: row.inside,
  };
  return direction === 'exit'
    ? { result: 'checked_out', invite, direction, at: row.at.toISOString(), ...admitted }
    : {
        result: 'checked_in',
        invite,
        checked_in_at: row.checked_in_at.toISOString(),
        scanne_par: row.scanne_par,
        direction,
        ...admitted,
      };
};

/** Where and how a scan applies: at a gate (or the implicit entrance), which way, for how many. */
interface ScanAt {
  gate: GateRow | null;
  direction: 'entry' | 'exit';
  people: number | null;
}

/**
 * A scan at a gate (docs/events.md, "Gates"): the conditional statement of data/gate-scans.ts
 * (the hot path's group commit runs the same one), so of concurrent scans only those that fit count; when it changed nothing,
 * the invite and its row at the gate say why (unknown, other event, revoked, type not admitted,
 * inside already, no re-entry, too many people, not inside). Changed in between: tried again.
 */
async function applyGateScan(
  db: Db,
  eventId: string,
  code: string,
  by: Scanner,
  nonce: string | null,
  at: ScanAt & { gate: GateRow },
): Promise<CheckinOutcome> {
  const { gate, direction, people } = at;
  const ref = gateRefOf(gate);
  for (;;) {
    const done = await countGateScan(db, { eventId, gateId: gate.id, direction, code, people, by, nonce });
    if (done) return atGate(done, direction);
    const found = await findInviteByCode(db, code);
    if (!found) return { result: 'unknown_code' };
    if (found.event_id !== eventId) return { result: 'wrong_event' };
    const invite = { id: found.id, nom: found.nom, type_invite: found.type_invite };
    if (found.revoked_at) return { result: 'revoked', invite };
    if (gate.invite_types.length && !gate.invite_types.includes(found.type_invite))
      return { result: 'not_admitted', invite, gate: ref };
    const here = await gatePresence(db, found.id, gate.id);
    const inside = here?.inside ?? 0;
    if (direction === 'exit') {
      if (people !== null ? inside < people : inside === 0)
        return { result: 'not_inside', invite, gate: ref, inside };
      continue;
    }
    const entries = here?.entries ?? 0;
    const remaining = Math.min(
      found.seats - inside,
      gate.allow_reentry ? found.seats : found.seats - entries,
    );
    if (remaining <= 0) {
      if (inside > 0 || !here)
        return {
          result: 'already_checked_in',
          invite,
          checked_in_at: (found.checked_in_at ?? here?.last_entry_at ?? new Date()).toISOString(),
          scanne_par: here?.last_entry_by ?? found.scanne_par,
          gate: ref,
          entered_at: here?.last_entry_at?.toISOString() ?? null,
          seats: found.seats,
          arrived: found.arrived,
        };
      return { result: 'no_reentry', invite, gate: ref, exited_at: here.last_exit_at?.toISOString() ?? null };
    }
    if (people !== null && people > remaining)
      return { result: 'seats_exceeded', invite, gate: ref, remaining, seats: found.seats };
  }
}

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
  at: ScanAt,
): Promise<CheckinOutcome> {
  if (at.gate) return applyGateScan(db, eventId, code, by, nonce, { ...at, gate: at.gate });
  const { people } = at;
  for (;;) {
    const done = await markCheckedIn(db, eventId, code, by, nonce, undefined, people);
    if (done) return checkedIn(done);
    const found = await findInviteByCode(db, code);
    if (!found) return { result: 'unknown_code' };
    if (found.event_id !== eventId) return { result: 'wrong_event' };
    const invite = { id: found.id, nom: found.nom, type_invite: found.type_invite };
    if (found.revoked_at) return { result: 'revoked', invite };
    const remaining = found.seats - found.arrived;
    if (remaining <= 0 && found.presence)
      return {
        result: 'already_checked_in',
        invite,
        checked_in_at: (found.checked_in_at ?? new Date()).toISOString(),
        scanne_par: found.scanne_par,
        ...(found.seats > 1 ? { seats: found.seats, arrived: found.arrived } : {}),
      };
    if (people !== null && people > remaining && remaining >= 0)
      return { result: 'seats_exceeded', invite, gate: null, remaining, seats: found.seats };
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
  at: ScanAt,
): Promise<ScanResult> {
  const by = scannerOf(actor, scan);
  const nonce = scan.nonce;
  if (!nonce)
    return applyScan(ctx.db, eventId, code, by, null, at).then((outcome) => ({ outcome, replayed: false }));
  return ctx.inTransaction(async (tx) => {
    if (!(await claimNonce(tx, eventId, nonce)))
      return { outcome: (await storedOutcome(tx, eventId, nonce)) as CheckinOutcome, replayed: true };
    const outcome = await applyScan(tx, eventId, code, by, nonce, at);
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
 * statement: at the implicit entrance a whole party's entry (data/scan-batch.ts), at a gate any
 * entry or exit (data/gate-scans.ts); anything else, including every refusal, takes the full
 * path, which says why.
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
  const hotCode = valid && !valid.nonce ? scannedCode(ctx.codeSigner, eventId, valid.code_unique) : undefined;
  if (valid && hotCode && !('device' in actor)) {
    const hot = { eventId, code: hotCode, by: scannerOf(actor, valid), staffUserId: actor.userId };
    if (valid.gate_id) {
      const direction = valid.direction ?? 'entry';
      const done = await ctx.gateScans.submit({
        ...hot,
        gateId: valid.gate_id,
        direction,
        people: valid.people ?? null,
      });
      if (done) return { outcome: atGate(done, direction), replayed: false };
    } else if (!valid.people && valid.direction !== 'exit') {
      const done = await ctx.hotScans.submit(hot);
      if (done) return { outcome: checkedIn(done), replayed: false };
    }
  }
  const { eventId: scannedEventId } = await requireAccess(ctx, { actor, permission: 'event.scan', eventId });
  const scan = cmd.scan();
  const code = scannedCode(ctx.codeSigner, scannedEventId, scan.code_unique);
  if (!code) throw emptyCode();
  return scanOnce(ctx, actor, scannedEventId, scan, code, await scanAt(ctx.db, actor, scannedEventId, scan));
}

/**
 * Where a scan applies (docs/events.md, "Gates"): the gate it names, else its scanner device's
 * gate, else the event's implicit entrance (entries only); a device scans only at its own gate.
 * @throws problems.invalid (422) naming `gate_id` for a gate the event does not have or another
 * gate than the device's; problems.exitsNotScanned (422) for an exit where exits are not scanned.
 */
async function scanAt(db: Db, actor: ScanActor, eventId: string, scan: Scan): Promise<ScanAt> {
  const deviceGate = 'device' in actor ? actor.device.gateId : null;
  if (scan.gate_id && deviceGate && scan.gate_id !== deviceGate)
    throw problems.invalid({ errors: { gate_id: ['This scanner device scans at another gate.'] } });
  const gateId = scan.gate_id ?? deviceGate;
  const gate = gateId ? ((await findGate(db, eventId, gateId)) ?? null) : null;
  if (gateId && !gate)
    throw problems.invalid({ errors: { gate_id: ['No gate with this id in this event.'] } });
  const direction = scan.direction ?? 'entry';
  if (direction === 'exit' && !gate?.scan_exits) throw problems.exitsNotScanned({ gate: gateRefOf(gate) });
  return { gate, direction, people: scan.people ?? null };
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
    const code = 'scan' in item ? scannedCode(ctx.codeSigner, eventId, item.scan.code_unique) : undefined;
    if (!('scan' in item) || !code) {
      const nonce = 'scan' in item ? (item.scan.nonce ?? null) : item.nonce;
      const errors = 'scan' in item ? { code_unique: ['code_unique is empty'] } : item.errors;
      results.push({ index, nonce, invalid: problems.invalid({ detail: 'This scan is invalid.', errors }) });
      continue;
    }
    const scan = { ...(batch.device ? { device: batch.device } : {}), ...item.scan };
    let at: ScanAt;
    try {
      at = await scanAt(ctx.db, cmd.actor, eventId, scan);
    } catch (err) {
      if (!(err instanceof ProblemError) || err.status !== 422) throw err;
      results.push({ index, nonce: scan.nonce ?? null, invalid: err });
      continue;
    }
    results.push({
      index,
      nonce: scan.nonce ?? null,
      ...(await scanOnce(ctx, cmd.actor, eventId, scan, code, at)),
    });
  }
  return results;
}
