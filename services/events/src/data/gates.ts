import { randomUUID } from 'node:crypto';
import type { Db } from './tx.ts';

/** A check-in list (gate) of an event, as stored. */
export interface GateRow {
  id: string;
  event_id: string;
  name: string;
  /** The invite types it admits; empty: every type. */
  invite_types: string[];
  scan_exits: boolean;
  allow_reentry: boolean;
  created_at: Date;
}

/** What a gate is made of (create and update). */
export interface GateFields {
  name: string;
  invite_types: string[];
  scan_exits: boolean;
  allow_reentry: boolean;
}

const GATE_COLUMNS = ['id', 'event_id', 'name', 'invite_types', 'scan_exits', 'allow_reentry', 'created_at'];

/** The event's gates, by name. */
export async function listGates(db: Db, eventId: string): Promise<GateRow[]> {
  return (await db('checkin_gates')
    .select(GATE_COLUMNS)
    .where('event_id', eventId)
    .orderByRaw('lower(name), id')) as GateRow[];
}

/** One gate of the event, or undefined. */
export async function findGate(db: Db, eventId: string, gateId: string): Promise<GateRow | undefined> {
  return (await db('checkin_gates').select(GATE_COLUMNS).where({ event_id: eventId, id: gateId }).first()) as
    GateRow | undefined;
}

/** Whether the error is the unique index on a gate's name within its event. */
export const isGateNameTaken = (err: unknown): boolean =>
  (err as { constraint?: string }).constraint === 'checkin_gates_event_name';

/** Creates a gate; rejects with the unique violation of `checkin_gates_event_name` for a name taken. */
export async function insertGate(db: Db, eventId: string, fields: GateFields): Promise<GateRow> {
  const [row] = (await db('checkin_gates')
    .insert({ id: randomUUID(), event_id: eventId, ...fields })
    .returning(GATE_COLUMNS)) as GateRow[];
  return row!;
}

/** Updates the fields given; undefined when the event has no such gate. */
export async function updateGate(
  db: Db,
  eventId: string,
  gateId: string,
  fields: Partial<GateFields>,
): Promise<GateRow | undefined> {
  const [row] = (await db('checkin_gates')
    .where({ event_id: eventId, id: gateId })
    .update(fields)
    .returning(GATE_COLUMNS)) as GateRow[];
  return row;
}

/** Deletes a gate with its presence rows and counts (devices on it fall back to no gate); false when none. */
export async function deleteGate(db: Db, eventId: string, gateId: string): Promise<boolean> {
  return (await db('checkin_gates').where({ event_id: eventId, id: gateId }).delete()) > 0;
}

/** An invite's people at one gate, as a refused scan reads them to say why. */
export interface GatePresenceRow {
  inside: number;
  entries: number;
  exits: number;
  last_entry_at: Date | null;
  last_entry_by: string | null;
  last_exit_at: Date | null;
}

/** The invite's row at the gate, or undefined when it never entered there. */
export async function gatePresence(
  db: Db,
  inviteId: string,
  gateId: string,
): Promise<GatePresenceRow | undefined> {
  return (await db('gate_presence')
    .select('inside', 'entries', 'exits', 'last_entry_at', 'last_entry_by', 'last_exit_at')
    .where({ invite_id: inviteId, gate_id: gateId })
    .first()) as GatePresenceRow | undefined;
}

/** Inside now, entries and exits of one gate. */
export interface GateCounts {
  gate_id: string;
  inside: number;
  entries: number;
  exits: number;
}

/** Every gate's counts of the event, summed over the counter rows in one statement (one snapshot). */
export async function gateCountsOf(db: Db, eventId: string): Promise<GateCounts[]> {
  const { rows } = (await db.raw(
    `SELECT gate_id, sum(inside) AS inside, sum(entries) AS entries, sum(exits) AS exits
     FROM gate_counts WHERE event_id = ? GROUP BY gate_id`,
    [eventId],
  )) as { rows: Array<{ gate_id: string; inside: string; entries: string; exits: string }> };
  return rows.map((r) => ({
    gate_id: r.gate_id,
    inside: Number(r.inside),
    entries: Number(r.entries),
    exits: Number(r.exits),
  }));
}

/** People who entered and left through one gate (null: the implicit entrance) in one 10-minute window. */
export interface GateFlow {
  gate_id: string | null;
  from: Date;
  entries: number;
  exits: number;
}

/**
 * The event's scans per gate and 10-minute window of their scan time (UTC-aligned), oldest
 * first: people in and out; windows without scans left out.
 */
export async function gateFlowsOf(db: Db, eventId: string): Promise<GateFlow[]> {
  const { rows } = (await db.raw(
    `SELECT gate_id, to_timestamp(floor(extract(epoch FROM scanned_at) / 600) * 600) AS bucket,
       sum(people) FILTER (WHERE direction = 'entry') AS entries,
       sum(people) FILTER (WHERE direction = 'exit') AS exits
     FROM attendance_log WHERE event_id = ? AND direction IS NOT NULL
     GROUP BY 1, 2 ORDER BY 2, 1`,
    [eventId],
  )) as {
    rows: Array<{ gate_id: string | null; bucket: Date; entries: string | null; exits: string | null }>;
  };
  return rows.map((r) => ({
    gate_id: r.gate_id,
    from: r.bucket,
    entries: Number(r.entries ?? 0),
    exits: Number(r.exits ?? 0),
  }));
}

/** Arrived people and seats of the event's active invites, per invite type. */
export async function arrivalsByType(
  db: Db,
  eventId: string,
): Promise<Array<{ type_invite: string; arrived: number; seats: number }>> {
  const { rows } = (await db.raw(
    `SELECT type_invite, sum(arrived) AS arrived, sum(seats) AS seats FROM invites
     WHERE event_id = ? AND revoked_at IS NULL GROUP BY type_invite ORDER BY type_invite`,
    [eventId],
  )) as { rows: Array<{ type_invite: string; arrived: string; seats: string }> };
  return rows.map((r) => ({
    type_invite: r.type_invite,
    arrived: Number(r.arrived),
    seats: Number(r.seats),
  }));
}
