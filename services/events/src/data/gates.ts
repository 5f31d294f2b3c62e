import { randomUUID } from 'node:crypto';
import type { Scanner } from './attendance.ts';
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

/** One scan at a gate, as the statements below take it. */
export interface GateScan {
  eventId: string;
  gate: GateRow;
  code: string;
  /** People of the party this scan lets in or out; null: all who can (entry) or all inside (exit). */
  people: number | null;
  by: Scanner;
  nonce: string | null;
}

/** What a scan that counted changed: the invite, and its people at the gate after it. */
export interface GateScanRow {
  id: string;
  nom: string;
  type_invite: string;
  seats: number;
  arrived: number;
  checked_in_at: Date;
  scanne_par: string | null;
  /** People of the party inside through this gate now. */
  inside: number;
  /** People the scan let in (entry) or out (exit). */
  people: number;
  at: Date;
}

const INVITE_AT_GATE = `
  SELECT i.id, i.nom, i.type_invite, i.seats, i.arrived, i.presence, i.checked_in_at, i.scanne_par
  FROM invites i
  WHERE i.code_unique = :code AND i.event_id = :event AND i.revoked_at IS NULL
    AND (cardinality(CAST(:types AS text[])) = 0 OR i.type_invite = ANY(CAST(:types AS text[])))`;

const LOG_COLUMNS = `(invite_id, event_id, action, presence, previous, scanne_par, user_id, user_name,
  scanner_device_id, device, nonce, scanned_at, gate_id, direction, people)`;

const bindings = (s: GateScan) => ({
  code: s.code,
  event: s.eventId,
  gate: s.gate.id,
  types: s.gate.invite_types,
  people: s.people,
  reentry: s.gate.allow_reentry,
  at: s.by.scannedAt,
  by: s.by.scanne_par,
  user: s.by.userId,
  user_name: s.by.userName,
  device_id: s.by.deviceId,
  device: s.by.device,
  nonce: s.nonce,
});

/**
 * An entry through a gate, in one statement: the invite's row at the gate is inserted or
 * conditionally updated (ON CONFLICT DO UPDATE ... WHERE, evaluated on the latest row version
 * after waiting for a concurrent scan of the same invite), so of concurrent entries only those
 * that fit count. An entry fits when the party's people inside through this gate plus those
 * entering do not pass its seats, and, without re-entry, neither do all the entries scanned at
 * the gate (each person enters once). `people` null lets in all who can. The invite is marked
 * arrived (the most people of the party seen inside at once, never fewer than before) and the
 * history row written. Resolves undefined when it did not fit or the code is not an active
 * invite of the event of a type the gate admits.
 */
export async function enterGate(db: Db, s: GateScan): Promise<GateScanRow | undefined> {
  const add = `CASE WHEN CAST(:people AS int) IS NULL
      THEN least(EXCLUDED.seats - g.inside, CASE WHEN CAST(:reentry AS boolean) THEN EXCLUDED.seats ELSE EXCLUDED.seats - g.entries END)
      ELSE CAST(:people AS int) END`;
  const { rows } = (await db.raw(
    `WITH inv AS (${INVITE_AT_GATE}),
     st AS (
       INSERT INTO gate_presence AS g (invite_id, gate_id, event_id, seats, inside, entries, exits, last_people,
         last_entry_at, last_entry_by)
       SELECT id, :gate, :event, seats, coalesce(CAST(:people AS int), seats), coalesce(CAST(:people AS int), seats), 0,
         coalesce(CAST(:people AS int), seats), coalesce(CAST(:at AS timestamptz), now()), :by
       FROM inv WHERE coalesce(CAST(:people AS int), seats) <= seats
       ON CONFLICT (invite_id, gate_id) DO UPDATE SET
         seats = EXCLUDED.seats, last_people = ${add}, inside = g.inside + ${add}, entries = g.entries + ${add},
         last_entry_at = EXCLUDED.last_entry_at, last_entry_by = EXCLUDED.last_entry_by
       WHERE ${add} > 0 AND g.inside + ${add} <= EXCLUDED.seats
         AND (CAST(:reentry AS boolean) OR g.entries + ${add} <= EXCLUDED.seats)
       RETURNING g.invite_id, g.inside, g.last_people, g.last_entry_at),
     upd AS (
       UPDATE invites i SET presence = true, arrived = greatest(i.arrived, st.inside),
         checked_in_at = CASE WHEN i.presence THEN i.checked_in_at ELSE st.last_entry_at END,
         scanne_par = CASE WHEN i.presence THEN i.scanne_par ELSE :by END, updated_at = now()
       FROM st WHERE i.id = st.invite_id AND (NOT i.presence OR i.arrived < st.inside)
       RETURNING i.id, i.arrived, i.checked_in_at, i.scanne_par),
     log AS (
       INSERT INTO attendance_log ${LOG_COLUMNS}
       SELECT st.invite_id, :event, 'checkin', true, inv.presence, :by, :user, :user_name, :device_id, :device,
         :nonce, st.last_entry_at, :gate, 'entry', st.last_people
       FROM st JOIN inv ON inv.id = st.invite_id)
     SELECT inv.id, inv.nom, inv.type_invite, inv.seats, coalesce(upd.arrived, inv.arrived) AS arrived,
       coalesce(upd.checked_in_at, inv.checked_in_at) AS checked_in_at,
       CASE WHEN upd.id IS NULL THEN inv.scanne_par ELSE upd.scanne_par END AS scanne_par,
       st.inside, st.last_people AS people, st.last_entry_at AS at
     FROM st JOIN inv ON inv.id = st.invite_id LEFT JOIN upd ON upd.id = st.invite_id`,
    bindings(s),
  )) as { rows: GateScanRow[] };
  return rows[0];
}

/**
 * An exit through a gate, in one statement: only people of the party inside through this gate
 * leave (`inside >= people`, checked on the latest row version), so inside never goes below
 * zero and an exit counts once. `people` null lets out all of the party inside. The invite stays
 * arrived. Resolves undefined when nothing matched.
 */
export async function exitGate(db: Db, s: GateScan): Promise<GateScanRow | undefined> {
  const { rows } = (await db.raw(
    `WITH inv AS (${INVITE_AT_GATE}),
     st AS (
       UPDATE gate_presence g SET last_people = coalesce(CAST(:people AS int), g.inside),
         inside = g.inside - coalesce(CAST(:people AS int), g.inside), exits = g.exits + coalesce(CAST(:people AS int), g.inside),
         last_exit_at = coalesce(CAST(:at AS timestamptz), now())
       FROM inv WHERE g.invite_id = inv.id AND g.gate_id = :gate AND g.inside > 0
         AND g.inside >= coalesce(CAST(:people AS int), 1)
       RETURNING g.invite_id, g.inside, g.last_people, g.last_exit_at),
     log AS (
       INSERT INTO attendance_log ${LOG_COLUMNS}
       SELECT st.invite_id, :event, 'exit', true, true, :by, :user, :user_name, :device_id, :device,
         :nonce, st.last_exit_at, :gate, 'exit', st.last_people
       FROM st)
     SELECT inv.id, inv.nom, inv.type_invite, inv.seats, inv.arrived, inv.checked_in_at, inv.scanne_par,
       st.inside, st.last_people AS people, st.last_exit_at AS at
     FROM st JOIN inv ON inv.id = st.invite_id`,
    bindings(s),
  )) as { rows: GateScanRow[] };
  return rows[0];
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
