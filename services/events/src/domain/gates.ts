import type { BodyReader } from '@fieldhouse/http';
import {
  arrivalsByType,
  deleteGate as deleteGateRow,
  findGate,
  gateCountsOf,
  gateFlowsOf,
  insertGate,
  isGateNameTaken,
  listGates as listGateRows,
  updateGate as updateGateRow,
  type GateFields,
  type GateRow,
} from '../data/gates.ts';
import { countsOf } from '../data/attendance.ts';
import type { Db } from '../data/tx.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext, ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import { problems } from './problems.ts';

/** A gate (check-in list) as the API shows it. */
export interface Gate {
  id: string;
  name: string;
  /** The invite types it admits; empty: every type. */
  invite_types: string[];
  /** Whether exits are scanned there (a scan may then be an `exit`). */
  scan_exits: boolean;
  /** Whether someone who left may enter again (needs `scan_exits`). */
  allow_reentry: boolean;
  created_at: string;
}

const gateOf = (row: GateRow): Gate => ({
  id: row.id,
  name: row.name,
  invite_types: row.invite_types,
  scan_exits: row.scan_exits,
  allow_reentry: row.allow_reentry,
  created_at: row.created_at.toISOString(),
});

const nameTaken = () =>
  problems.invalid({ errors: { name: ['The event already has a gate with this name.'] } });

/** Re-entry is only meaningful where exits are scanned: without them it is off. */
const coherent = <T extends Partial<GateFields>>(f: T, current?: GateRow): T => {
  const exits = f.scan_exits ?? current?.scan_exits ?? false;
  return exits ? f : { ...f, allow_reentry: false };
};

/**
 * The event's gates, by name (docs/events.md, "Gates"); an event without gates has only its
 * implicit entrance and answers `[]`. Owner, staff, and the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event.
 */
export async function listGates(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string },
): Promise<Gate[]> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  return (await listGateRows(ctx.db, eventId)).map(gateOf);
}

/**
 * Adds a gate `{name, invite_types?, scan_exits?, allow_reentry?}` (types default to all,
 * exits and re-entry to off; re-entry is turned off when exits are not scanned). Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.invalid (422) for a bad body or a name the event's gates already use (any case).
 */
export async function createGate(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; gate: BodyReader<Partial<GateFields> & { name: string }> },
): Promise<Gate> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const body = cmd.gate();
  const fields = coherent({
    name: body.name,
    invite_types: body.invite_types ?? [],
    scan_exits: body.scan_exits ?? false,
    allow_reentry: body.allow_reentry ?? false,
  });
  try {
    return gateOf(await insertGate(ctx.db, eventId, fields));
  } catch (err) {
    if (isGateNameTaken(err)) throw nameTaken();
    throw err;
  }
}

/**
 * Changes the fields given of a gate; the counts and who is inside stay. Owner only.
 * @throws problems.noSuch (404) unless owner or staff, or for a gate the event does not have;
 * problems.ownerOnly (403) for staff; problems.invalid (422) for a bad body or a name taken.
 */
export async function updateGate(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; gateId: string; gate: BodyReader<Partial<GateFields>> },
): Promise<Gate> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const current = isUuid(cmd.gateId) ? await findGate(ctx.db, eventId, cmd.gateId) : undefined;
  if (!current) throw problems.noSuch({ what: 'gate' });
  try {
    const row = await updateGateRow(ctx.db, eventId, cmd.gateId, coherent(cmd.gate(), current));
    if (!row) throw problems.noSuch({ what: 'gate' });
    return gateOf(row);
  } catch (err) {
    if (isGateNameTaken(err)) throw nameTaken();
    throw err;
  }
}

/**
 * Deletes a gate with its counts; its scans stay in the history, and devices that scanned there
 * fall back to the implicit entrance. Owner only.
 * @throws problems.noSuch (404) unless owner or staff, or for a gate the event does not have;
 * problems.ownerOnly (403) for staff.
 */
export async function deleteGate(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; gateId: string },
): Promise<void> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  if (!isUuid(cmd.gateId) || !(await deleteGateRow(ctx.db, eventId, cmd.gateId)))
    throw problems.noSuch({ what: 'gate' });
}

/** Inside now, entries and exits at one gate (null id and name: the implicit entrance). */
interface GateAttendance {
  id: string | null;
  name: string | null;
  inside: number;
  entries: number;
  exits: number;
}

/** People inside through one gate at the end of a 10-minute window. */
interface InsidePoint {
  gate_id: string | null;
  /** Start of the window (ISO 8601, UTC). */
  from: string;
  inside: number;
}

/** The gates part of the attendance answer (docs/events.md, "Gates", "Attendance"). */
export interface GatesAttendance {
  /** People inside now, entries and exits for the whole event (the sum of its gates). */
  inside: number;
  entries: number;
  exits: number;
  gates: GateAttendance[];
  /** Inside per gate over time: after each 10-minute window with scans, oldest first. */
  inside_over_time: InsidePoint[];
  /** People arrived and expected per invite type (active invites). */
  arrivals_by_type: Array<{ type_invite: string; arrived: number; seats: number }>;
}

/**
 * Per gate and for the event: inside now, entries and exits (from the counters, one snapshot
 * each), inside per gate over time (running sums of the history's entries and exits per
 * 10-minute window), and arrivals per invite type. The implicit entrance is listed when the
 * event has no gates or someone entered through it; having no exits, its inside is its entries
 * (the people arrived through it). The caller checked the access (the attendance use case).
 */
export async function gatesAttendanceOf(db: Db, eventId: string): Promise<GatesAttendance> {
  const [gates, counts, flows, byType, people] = await Promise.all([
    listGateRows(db, eventId),
    gateCountsOf(db, eventId),
    gateFlowsOf(db, eventId),
    arrivalsByType(db, eventId),
    countsOf(db, eventId),
  ]);
  const byGate = new Map(counts.map((c) => [c.gate_id, c]));
  const rows: GateAttendance[] = gates.map((g) => ({
    id: g.id,
    name: g.name,
    inside: byGate.get(g.id)?.inside ?? 0,
    entries: byGate.get(g.id)?.entries ?? 0,
    exits: byGate.get(g.id)?.exits ?? 0,
  }));
  // The implicit entrance: the people it let in, from its history rows (no counters of its own).
  const implicitIn = flows.filter((f) => f.gate_id === null).reduce((n, f) => n + f.entries, 0);
  if (!gates.length || implicitIn > 0) {
    const inside = gates.length ? Math.min(implicitIn, people.present) : people.present;
    rows.unshift({
      id: null,
      name: null,
      inside,
      entries: gates.length ? implicitIn : people.present,
      exits: 0,
    });
  }
  const known = new Set(rows.map((r) => r.id));
  const running = new Map<string | null, number>();
  const insideOverTime: InsidePoint[] = [];
  for (const f of flows) {
    if (!known.has(f.gate_id)) continue;
    const now = (running.get(f.gate_id) ?? 0) + f.entries - f.exits;
    running.set(f.gate_id, now);
    insideOverTime.push({ gate_id: f.gate_id, from: f.from.toISOString(), inside: Math.max(0, now) });
  }
  return {
    inside: rows.reduce((n, r) => n + r.inside, 0),
    entries: rows.reduce((n, r) => n + r.entries, 0),
    exits: rows.reduce((n, r) => n + r.exits, 0),
    gates: rows,
    inside_over_time: insideOverTime,
    arrivals_by_type: byType,
  };
}
