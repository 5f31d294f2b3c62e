import type { Knex } from 'knex';
import { GroupCommit, statementBatches } from '@fieldhouse/group-commit';
import type { Logger } from '@fieldhouse/logger';
import type { Scanner } from './attendance.ts';
import type { Db } from './tx.ts';

/** One scan at a gate, as {@link applyGateScan} and the group commit take it. */
export interface GateScan {
  eventId: string;
  gateId: string;
  direction: 'entry' | 'exit';
  /** The canonical code (upper case, no spaces or dashes). */
  code: string;
  /** People of the party this scan lets in or out; null: all who can (entry) or all inside (exit). */
  people: number | null;
  by: Scanner;
  nonce: string | null;
}

/** A gate scan of the hot path: no nonce, the caller (owner or staff) checked in the statement. */
export interface HotGateScan extends Omit<GateScan, 'nonce'> {
  /** The caller, who must own or staff the event. */
  staffUserId: number;
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
  gate_id: string;
  gate_name: string;
  /** People of the party inside through this gate now. */
  inside: number;
  /** People the scan let in (entry) or out (exit). */
  people: number;
  /** When the entry or exit was scanned. */
  at: Date;
}

/** The row of a scan, without the `ord` that matched it to its scan. */
const fromRow = ({ ord: _ord, ...row }: GateScanRow & { ord?: number }): GateScanRow => row;

const toRecord = (s: GateScan & { staffUserId?: number }, ord: number) => ({
  ord,
  code: s.code,
  event_id: s.eventId,
  gate_id: s.gateId,
  direction: s.direction,
  people: s.people,
  staff_id: s.staffUserId ?? null,
  scanned_at: s.by.scannedAt?.toISOString() ?? null,
  scanne_par: s.by.scanne_par,
  user_id: s.by.userId,
  user_name: s.by.userName,
  device_id: s.by.deviceId,
  device: s.by.device,
  nonce: s.nonce,
});

/**
 * The statement of gate scans (docs/events.md, "Gates"), over a set of scans given as one JSON
 * array, each scan keeping its own conditions and answer; at most one scan per invite (the
 * callers see to it). With `checkAccess`, a scan counts only when its `staff_id` owns or staffs
 * the event (the hot path); without, the caller checked access before.
 *
 * - `inv`: each scan's active invite of its event, at a gate of that event that admits its type
 *   (and, for an exit, scans exits).
 * - Entries of an invite never seen at the gate insert its row there (`ON CONFLICT DO NOTHING`:
 *   when a concurrent scan inserted it first, this scan matches nothing and the full path says
 *   why). Scans of a row that exists update it with `WHERE` conditions evaluated on its latest
 *   version after waiting for a concurrent scan of the same invite (READ COMMITTED's re-check),
 *   so of simultaneous scans only those that fit count: an entry fits when the party's people
 *   inside plus those entering do not pass its seats and, without re-entry, neither do all the
 *   entries scanned at the gate; an exit when that many are inside. `people` null: all who can
 *   (entry), all inside (exit). The two writes touch disjoint rows (absent from, or present in,
 *   the statement's snapshot).
 * - An entry marks the invite arrived (the most people of the party seen inside at once), the
 *   history row of every counted scan is written, and the gate's counters follow by the
 *   statement triggers of `gate_presence` (migration 009).
 */
const gateScansSql = (checkAccess: boolean) => `
WITH scans AS (
  SELECT * FROM jsonb_to_recordset(?::jsonb) AS s(ord int, code text, event_id uuid, gate_id uuid, direction text,
    people int, staff_id int, scanned_at timestamptz, scanne_par text, user_id int, user_name text, device_id uuid,
    device text, nonce text)),
inv AS (
  SELECT s.ord, s.gate_id, gt.name AS gate_name, gt.allow_reentry AS reentry, s.event_id, s.direction, s.people,
    coalesce(s.scanned_at, now()) AS at, s.scanne_par AS by_name, s.user_id, s.user_name, s.device_id, s.device, s.nonce,
    i.id, i.nom, i.type_invite, i.seats, i.arrived, i.presence, i.checked_in_at, i.scanne_par
  FROM scans s
  JOIN checkin_gates gt ON gt.id = s.gate_id AND gt.event_id = s.event_id
  JOIN invites i ON i.code_unique = s.code AND i.event_id = s.event_id AND i.revoked_at IS NULL
  WHERE (cardinality(gt.invite_types) = 0 OR i.type_invite = ANY(gt.invite_types))
    AND (s.direction = 'entry' OR (s.direction = 'exit' AND gt.scan_exits))${
      checkAccess
        ? `
    AND EXISTS (SELECT 1 FROM events e WHERE e.id = s.event_id AND (e.owner_id = s.staff_id
      OR EXISTS (SELECT 1 FROM event_staff st WHERE st.event_id = e.id AND st.user_id = s.staff_id)))`
        : ''
    }),
ins AS (
  INSERT INTO gate_presence (invite_id, gate_id, event_id, seats, inside, entries, exits, last_people,
    last_entry_at, last_entry_by)
  SELECT id, gate_id, event_id, seats, coalesce(people, seats), coalesce(people, seats), 0, coalesce(people, seats),
    at, by_name
  FROM inv
  WHERE direction = 'entry' AND coalesce(people, seats) <= seats
    AND NOT EXISTS (SELECT 1 FROM gate_presence g WHERE g.invite_id = inv.id AND g.gate_id = inv.gate_id)
  ORDER BY id
  ON CONFLICT (invite_id, gate_id) DO NOTHING
  RETURNING invite_id, inside, last_people, last_entry_at AS at),
upd AS (
  UPDATE gate_presence g SET
    seats = CASE WHEN inv.direction = 'entry' THEN inv.seats ELSE g.seats END,
    last_people = CASE WHEN inv.direction = 'entry' THEN ${ADD} ELSE ${OUT} END,
    inside = g.inside + CASE WHEN inv.direction = 'entry' THEN ${ADD} ELSE -${OUT} END,
    entries = g.entries + CASE WHEN inv.direction = 'entry' THEN ${ADD} ELSE 0 END,
    exits = g.exits + CASE WHEN inv.direction = 'entry' THEN 0 ELSE ${OUT} END,
    last_entry_at = CASE WHEN inv.direction = 'entry' THEN inv.at ELSE g.last_entry_at END,
    last_entry_by = CASE WHEN inv.direction = 'entry' THEN inv.by_name ELSE g.last_entry_by END,
    last_exit_at = CASE WHEN inv.direction = 'entry' THEN g.last_exit_at ELSE inv.at END
  FROM inv
  WHERE g.invite_id = inv.id AND g.gate_id = inv.gate_id
    AND CASE WHEN inv.direction = 'entry'
      THEN ${ADD} > 0 AND g.inside + ${ADD} <= inv.seats AND (inv.reentry OR g.entries + ${ADD} <= inv.seats)
      ELSE g.inside > 0 AND g.inside >= coalesce(inv.people, 1) END
  RETURNING g.invite_id, g.inside, g.last_people, inv.at),
st AS (
  SELECT inv.*, done.inside AS now_inside, done.last_people, done.at AS done_at
  FROM (SELECT * FROM ins UNION ALL SELECT * FROM upd) AS done JOIN inv ON inv.id = done.invite_id),
arrival AS (
  UPDATE invites i SET presence = true, arrived = greatest(i.arrived, st.now_inside),
    checked_in_at = CASE WHEN i.presence THEN i.checked_in_at ELSE st.done_at END,
    scanne_par = CASE WHEN i.presence THEN i.scanne_par ELSE st.by_name END, updated_at = now()
  FROM st WHERE i.id = st.id AND st.direction = 'entry' AND (NOT i.presence OR i.arrived < st.now_inside)
  RETURNING i.id, i.arrived, i.checked_in_at, i.scanne_par),
log AS (
  INSERT INTO attendance_log (invite_id, event_id, action, presence, previous, scanne_par, user_id, user_name,
    scanner_device_id, device, nonce, scanned_at, gate_id, direction, people)
  SELECT id, event_id, CASE WHEN direction = 'entry' THEN 'checkin' ELSE 'exit' END, true,
    direction = 'exit' OR presence, by_name, user_id, user_name, device_id, device, nonce, done_at, gate_id, direction,
    last_people
  FROM st)
SELECT st.ord, st.id, st.nom, st.type_invite, st.seats, coalesce(arrival.arrived, st.arrived) AS arrived,
  coalesce(arrival.checked_in_at, st.checked_in_at) AS checked_in_at,
  CASE WHEN arrival.id IS NULL THEN st.scanne_par ELSE arrival.scanne_par END AS scanne_par,
  st.gate_id, st.gate_name, st.now_inside AS inside, st.last_people AS people, st.done_at AS at
FROM st LEFT JOIN arrival ON arrival.id = st.id`;

/** People an entry lets in, on the row's latest version `g`: as asked, else all who can. */
const ADD = `CASE WHEN inv.people IS NULL
      THEN least(inv.seats - g.inside, CASE WHEN inv.reentry THEN inv.seats ELSE inv.seats - g.entries END)
      ELSE inv.people END`;
/** People an exit lets out, on the row's latest version `g`: as asked, else all inside. */
const OUT = 'coalesce(inv.people, g.inside)';

const FULL_PATH_SQL = gateScansSql(false);
const HOT_PATH_SQL = gateScansSql(true);

/**
 * Runs one of the two statements as a named prepared statement (node-postgres prepares it once
 * per connection): planning this statement took 0.7 to 2.8 ms (EXPLAIN ANALYZE), as much as
 * writing a batch of ten scans, on every call before.
 */
const run = (db: Db, hot: boolean, records: unknown[]) =>
  db
    .raw(hot ? HOT_PATH_SQL : FULL_PATH_SQL, [JSON.stringify(records)])
    .options({ name: hot ? 'events_gate_scans_hot' : 'events_gate_scans' }) as unknown as Promise<{
    rows: Array<GateScanRow & { ord: number }>;
  }>;

/**
 * Applies one scan at a gate in one statement (see {@link gateScansSql}): an entry or exit that
 * fits counts once, exactly, whatever scans of the same invite run at the same time. Resolves
 * with what it changed, or undefined when it did not count (unknown or revoked code, another
 * event's, a type the gate does not admit, an exit where exits are not scanned, inside already,
 * no re-entry, too many people, not inside): the caller reads why.
 */
export async function applyGateScan(db: Db, scan: GateScan): Promise<GateScanRow | undefined> {
  const { rows } = await run(db, false, [toRecord(scan, 0)]);
  const [row] = rows;
  return row && fromRow(row);
}

/**
 * Group commit of gate scans without nonce by the owner or staff (docs/events.md, "Gates"), as
 * the implicit entrance's hot path ({@link scanGroupCommit} in scan-batch.ts): scans that arrive
 * while earlier ones are being written go together, one statement, one round trip and one commit
 * for up to 200, each with its own conditions, access check included, and its own answer (the
 * row, or undefined: the caller then takes the full path, which says why). A batch holds at most
 * one scan per code: a second scan of the same code waits for the next round as undefined (the
 * full path), since a statement may change a row once. Scans are applied in code order, so
 * batches sharing codes lock them in the same order; a batch statement failing on one scan's
 * data or on a clash with another transaction (a deadlock) applied nothing, and each scan is
 * retried alone.
 */
export function gateScanGroupCommit(
  db: Knex,
  logger: Logger,
): GroupCommit<HotGateScan, GateScanRow | undefined> {
  const batch = async (scans: HotGateScan[]) => {
    const seen = new Set<string>();
    const records = scans
      .map((s, ord) => toRecord({ ...s, nonce: null }, ord))
      .sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0))
      .filter((r) => !seen.has(r.code) && seen.add(r.code));
    return (await run(db, true, records)).rows;
  };
  const write = statementBatches<HotGateScan, GateScanRow, GateScanRow | undefined>({
    statement: batch,
    alone: async (s) => {
      const [row] = await batch([s]);
      return row && fromRow(row);
    },
    fromRow,
    noRow: () => undefined,
    onFallback: (err, scans) =>
      logger.warn('gate scan batch failed: each scan retried alone', { err, scans }),
  });
  return new GroupCommit(write, { maxBatch: 200, maxInFlight: 2 });
}
