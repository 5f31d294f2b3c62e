import type { Knex } from 'knex';
import { GroupCommit, statementBatches } from '@fieldhouse/group-commit';
import type { Logger } from '@fieldhouse/logger';
import { markCheckedIn, type CheckedInRow, type Scanner } from './attendance.ts';

/** A scan of the scanner hot path: no nonce, the scanner's access checked in the statement. */
export interface HotScan {
  eventId: string;
  code: string;
  by: Scanner;
  /** The caller, who must own or staff the event. */
  staffUserId: number;
}

/**
 * Group commit of hot-path check-ins (docs/events.md, "Check-in"; @fieldhouse/group-commit):
 * scans that arrive while earlier ones are being written are applied together by one statement,
 * one round trip and one commit, instead of one each. Each scan keeps its own outcome, exactly
 * as {@link markCheckedIn} would give it: the row checked in, or undefined (refused or unknown: the
 * caller then takes the full path, which says why). Of two scans of one code in one batch only
 * one matches (an UPDATE changes a row once); the other is answered as already checked in.
 * When the batch statement fails because of one scan's data or a clash with another
 * transaction (retryAlone of @fieldhouse/group-commit), nothing of it was applied and each scan is retried alone;
 * any other error (connection lost...) fails the batch's scans. Scans are applied in code
 * order, so batches that share codes lock them in the same order.
 */
export function scanGroupCommit(db: Knex, logger: Logger): GroupCommit<HotScan, CheckedInRow | undefined> {
  const write = statementBatches<HotScan, Row, CheckedInRow | undefined>({
    statement: async (scans) => {
      // In code order, so that two batches holding the same codes lock their invites in the
      // same order (double scans at two gates), and cannot deadlock on them.
      const records = scans.map(toRecord).sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
      return (await db.raw(BATCH_SQL, [JSON.stringify(records)])).rows as Array<Row & { ord: number }>;
    },
    alone: (s) => markCheckedIn(db, s.eventId, s.code, s.by, null, s.staffUserId),
    fromRow: ({ id, nom, type_invite, checked_in_at, scanne_par, seats, arrived, people }) => ({
      id,
      nom,
      type_invite,
      checked_in_at,
      scanne_par,
      seats,
      arrived,
      people,
    }),
    noRow: () => undefined,
    onFallback: (err, scans) => logger.warn('check-in batch failed: each scan retried alone', { err, scans }),
  });
  return new GroupCommit(write, { maxBatch: 200, maxInFlight: 2 });
}

interface Row {
  id: string;
  nom: string;
  type_invite: string;
  checked_in_at: Date;
  scanne_par: string | null;
  seats: number;
  arrived: number;
  people: number;
}

const toRecord = (s: HotScan, ord: number) => ({
  ord,
  code: s.code,
  event_id: s.eventId,
  staff_id: s.staffUserId,
  scanned_at: s.by.scannedAt?.toISOString() ?? null,
  scanne_par: s.by.scanne_par,
  user_name: s.by.userName,
  device: s.by.device,
});

/**
 * {@link markCheckedIn}'s statement over a set of scans given as one JSON array: the same
 * conditions per scan (active, absent invite of the scan's event; the scanner owns or staffs
 * it), the invite rows and their history rows written together.
 */
const BATCH_SQL = `
WITH scans AS (
  SELECT * FROM jsonb_to_recordset(?::jsonb) AS s(ord int, code text, event_id uuid, staff_id int,
    scanned_at timestamptz, scanne_par text, user_name text, device text)),
upd AS (
  UPDATE invites SET presence = true, checked_in_at = coalesce(s.scanned_at, now()),
    scanne_par = s.scanne_par, updated_at = now(), arrived = invites.seats, last_people = invites.seats
  FROM scans s
  WHERE invites.code_unique = s.code AND invites.event_id = s.event_id AND NOT invites.presence
    AND invites.revoked_at IS NULL
    AND EXISTS (SELECT 1 FROM events e WHERE e.id = s.event_id AND (e.owner_id = s.staff_id
      OR EXISTS (SELECT 1 FROM event_staff st WHERE st.event_id = e.id AND st.user_id = s.staff_id)))
  RETURNING s.ord, invites.id, invites.event_id, invites.nom, invites.type_invite,
    invites.checked_in_at, invites.scanne_par, invites.seats, invites.arrived, invites.last_people AS people,
    s.staff_id, s.user_name, s.device),
log AS (
  INSERT INTO attendance_log
    (invite_id, event_id, action, presence, previous, scanne_par, user_id, user_name, device, nonce, scanned_at,
     direction, people)
  SELECT id, event_id, 'checkin', true, false, scanne_par, staff_id, user_name, device, NULL, checked_in_at,
    'entry', people
  FROM upd)
SELECT ord, id, nom, type_invite, checked_in_at, scanne_par, seats, arrived, people FROM upd`;
