import type { Knex } from 'knex';
import type { CheckinAnswer, CheckinOutcome } from '../domain/checkin.ts';
import { eventStats, type EventStats } from '../domain/stats.ts';

/** Who made a presence change, from which device, when the scan happened. */
export interface Scanner {
  /** `scanne_par` as the client gave it (free text), or the caller's name. */
  scanne_par: string | null;
  /** The signed-in user who scanned, or null for a scanner device. */
  userId: number | null;
  userName: string | null;
  /** The scanner device that scanned (docs/events.md, "Scanner devices"), or null for a user. */
  deviceId: string | null;
  device: string | null;
  /** When the scan happened (client time for offline scans), else now. */
  scannedAt: Date | null;
}

export type CheckedIn = Extract<CheckinOutcome, { result: 'checked_in' }>;

/**
 * The conditional UPDATE of a check-in: only an active, absent invite of this event changes,
 * and its history row is written in the same statement. With `staffUserId` it also requires
 * that user to own or staff the event (the scanner hot path: access check and check-in in one
 * round trip). Resolves undefined when nothing changed.
 */
export async function markCheckedIn(
  db: Knex | Knex.Transaction,
  eventId: string,
  code: string,
  by: Scanner,
  nonce: string | null,
  staffUserId?: number,
): Promise<CheckedIn | undefined> {
  const access =
    staffUserId === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM events e WHERE e.id = invites.event_id AND (e.owner_id = ?
           OR EXISTS (SELECT 1 FROM event_staff s WHERE s.event_id = e.id AND s.user_id = ?)))`;
  const { rows } = (await db.raw(
    `WITH upd AS (
       UPDATE invites SET presence = true, checked_in_at = coalesce(?::timestamptz, now()),
         scanne_par = ?, updated_at = now()
       WHERE code_unique = ? AND event_id = ? AND NOT presence AND revoked_at IS NULL ${access}
       RETURNING id, nom, type_invite, checked_in_at, scanne_par),
     log AS (
       INSERT INTO attendance_log
         (invite_id, event_id, action, presence, previous, scanne_par, user_id, user_name, scanner_device_id,
          device, nonce, scanned_at)
       SELECT id, ?, 'checkin', true, false, ?, ?, ?, ?, ?, ?, checked_in_at FROM upd)
     SELECT * FROM upd`,
    [
      by.scannedAt,
      by.scanne_par,
      code,
      eventId,
      ...(staffUserId === undefined ? [] : [staffUserId, staffUserId]),
      eventId,
      by.scanne_par,
      by.userId,
      by.userName,
      by.deviceId,
      by.device,
      nonce,
    ],
  )) as {
    rows: Array<{
      id: string;
      nom: string;
      type_invite: string;
      checked_in_at: Date;
      scanne_par: string | null;
    }>;
  };
  const done = rows[0];
  return done
    ? {
        result: 'checked_in',
        invite: { id: done.id, nom: done.nom, type_invite: done.type_invite },
        checked_in_at: done.checked_in_at.toISOString(),
        scanne_par: done.scanne_par,
      }
    : undefined;
}

/**
 * Checks an invite in by its code, atomically ({@link markCheckedIn}), so of two concurrent
 * scans of one code exactly one succeeds; the other then reads the invite to say why it failed
 * (already checked in, other event, revoked, unknown).
 */
export async function checkIn(
  db: Knex | Knex.Transaction,
  eventId: string,
  code: string,
  by: Scanner,
  nonce: string | null,
): Promise<CheckinOutcome> {
  for (;;) {
    const done = await markCheckedIn(db, eventId, code, by, nonce);
    if (done) return done;
    const found = (await db('invites')
      .select('id', 'event_id', 'nom', 'type_invite', 'presence', 'checked_in_at', 'scanne_par', 'revoked_at')
      .where('code_unique', code)
      .first()) as
      | {
          id: string;
          event_id: string;
          nom: string;
          type_invite: string;
          presence: boolean;
          checked_in_at: Date | null;
          scanne_par: string | null;
          revoked_at: Date | null;
        }
      | undefined;
    if (!found) return { result: 'unknown_code' };
    if (found.event_id !== eventId) return { result: 'wrong_event' };
    const invite = { id: found.id, nom: found.nom, type_invite: found.type_invite };
    if (found.revoked_at) return { result: 'revoked', invite };
    if (found.presence) {
      return {
        result: 'already_checked_in',
        invite,
        checked_in_at: (found.checked_in_at ?? new Date()).toISOString(),
        scanne_par: found.scanne_par,
      };
    }
    // Marked absent or restored between the UPDATE and the read: try again.
  }
}

/**
 * Runs `scan` once per (event, client nonce): the nonce is claimed with an insert in the same
 * transaction as the check-in, so a concurrent or later request with the same nonce waits for
 * the first and then gets its stored answer (`replayed: true`) without scanning again.
 */
export async function oncePerNonce(
  db: Knex,
  eventId: string,
  nonce: string,
  scan: (trx: Knex.Transaction) => Promise<CheckinAnswer>,
): Promise<CheckinAnswer & { replayed: boolean }> {
  return db.transaction(async (trx) => {
    const claimed = await trx('checkin_nonces')
      .insert({ event_id: eventId, nonce, status: 0, body: '{}' })
      .onConflict(['event_id', 'nonce'])
      .ignore()
      .returning('nonce');
    if (!claimed.length) {
      const stored = (await trx('checkin_nonces')
        .select('status', 'body')
        .where({ event_id: eventId, nonce })
        .first()) as {
        status: number;
        body: Record<string, unknown>;
      };
      return { ...stored, replayed: true };
    }
    const answer = await scan(trx);
    await trx('checkin_nonces')
      .where({ event_id: eventId, nonce })
      .update({ status: answer.status, body: JSON.stringify(answer.body) });
    return { ...answer, replayed: false };
  });
}

/**
 * Sets an invite's presence (spec 3, PUT presence) and records the change in the history.
 * Resolves with the invitee's name and the previous presence, `revoked` when the invite is
 * revoked and `presence` is true (nothing changes), or undefined when it does not exist.
 */
export async function setPresence(
  db: Knex,
  eventId: string,
  inviteId: string,
  presence: boolean,
  by: Scanner,
): Promise<{ nom: string; previous: boolean } | 'revoked' | undefined> {
  return db.transaction(async (trx) => {
    const current = (await trx('invites')
      .select('nom', 'presence', 'revoked_at')
      .where({ id: inviteId, event_id: eventId })
      .forUpdate()
      .first()) as { nom: string; presence: boolean; revoked_at: Date | null } | undefined;
    if (!current) return undefined;
    if (presence && current.revoked_at) return 'revoked';
    const at = by.scannedAt ?? new Date();
    await trx('invites')
      .where('id', inviteId)
      .update({
        presence,
        checked_in_at: presence ? (current.presence ? trx.raw('checked_in_at') : at) : null,
        scanne_par: presence && current.presence ? trx.raw('scanne_par') : by.scanne_par,
        updated_at: trx.fn.now(),
      });
    await trx('attendance_log').insert({
      invite_id: inviteId,
      event_id: eventId,
      action: 'presence',
      presence,
      previous: current.presence,
      scanne_par: by.scanne_par,
      user_id: by.userId,
      user_name: by.userName,
      scanner_device_id: by.deviceId,
      device: by.device,
      scanned_at: at,
    });
    return { nom: current.nom, previous: current.presence };
  });
}

/** One entry of an invite's presence history. */
export interface HistoryEntry {
  id: number;
  action: 'presence' | 'checkin';
  presence: boolean;
  previous: boolean;
  scanne_par: string | null;
  user_id: number | null;
  user_name: string | null;
  /** The scanner device that made the change (null when a user did). */
  scanner_device: { id: string; name: string } | null;
  device: string | null;
  nonce: string | null;
  scanned_at: string;
  recorded_at: string;
}

/** The invite's presence changes, oldest first. */
export async function inviteHistory(db: Knex, inviteId: string): Promise<HistoryEntry[]> {
  const rows = (await db('attendance_log as l')
    .leftJoin('scanner_devices as d', 'd.id', 'l.scanner_device_id')
    .select(
      'l.id',
      'l.action',
      'l.presence',
      'l.previous',
      'l.scanne_par',
      'l.user_id',
      'l.user_name',
      'l.scanner_device_id',
      'd.name as scanner_device_name',
      'l.device',
      'l.nonce',
      'l.scanned_at',
      'l.recorded_at',
    )
    .where('l.invite_id', inviteId)
    .orderBy('l.id')) as Array<
    Omit<HistoryEntry, 'scanner_device' | 'scanned_at' | 'recorded_at'> & {
      scanner_device_id: string | null;
      scanner_device_name: string | null;
      scanned_at: Date;
      recorded_at: Date;
    }
  >;
  return rows.map(({ scanner_device_id, scanner_device_name, ...r }) => ({
    ...r,
    id: Number(r.id),
    scanner_device: scanner_device_id ? { id: scanner_device_id, name: scanner_device_name ?? '' } : null,
    scanned_at: r.scanned_at.toISOString(),
    recorded_at: r.recorded_at.toISOString(),
  }));
}

/** Exact statistics of the event's active (non-revoked) invites, in one consistent snapshot. */
export async function statsOf(db: Knex, eventId: string): Promise<EventStats> {
  const { rows } = (await db.raw(
    `SELECT coalesce(sum(total), 0) AS total, coalesce(sum(present), 0) AS present
     FROM invite_counts WHERE event_id = ?`,
    [eventId],
  )) as { rows: Array<{ total: string | number; present: string | number }> };
  return eventStats(Number(rows[0]!.total), Number(rows[0]!.present));
}

/** Arrivals in one 10-minute window: its start (ISO 8601 UTC) and how many checked in. */
export interface ArrivalBucket {
  from: string;
  count: number;
}

/**
 * Check-ins of the event's present, active invites per 10-minute window of `checked_in_at`
 * (windows aligned on the clock, UTC), oldest first; windows without arrivals are left out.
 */
export async function arrivalsOf(db: Knex, eventId: string): Promise<ArrivalBucket[]> {
  const { rows } = (await db.raw(
    `SELECT to_timestamp(floor(extract(epoch FROM checked_in_at) / 600) * 600) AS bucket, count(*) AS n
     FROM invites
     WHERE event_id = ? AND presence AND revoked_at IS NULL AND checked_in_at IS NOT NULL
     GROUP BY 1 ORDER BY 1`,
    [eventId],
  )) as { rows: Array<{ bucket: Date; n: string }> };
  return rows.map((r) => ({ from: r.bucket.toISOString(), count: Number(r.n) }));
}

/** One of the latest check-ins: who, when, and who scanned (device or user). */
export interface LatestCheckin {
  invite_id: string;
  nom: string;
  type_invite: string;
  checked_in_at: string;
  scanne_par: string | null;
  scanner_device: { id: string; name: string } | null;
  user_name: string | null;
}

/** The event's latest `limit` changes that made an invitee present (check-ins and presence), newest first. */
export async function latestCheckins(db: Knex, eventId: string, limit: number): Promise<LatestCheckin[]> {
  const rows = (await db('attendance_log as l')
    .join('invites as i', 'i.id', 'l.invite_id')
    .leftJoin('scanner_devices as d', 'd.id', 'l.scanner_device_id')
    .select(
      'l.invite_id',
      'i.nom',
      'i.type_invite',
      'l.scanned_at',
      'l.scanne_par',
      'l.scanner_device_id',
      'd.name as scanner_device_name',
      'l.user_name',
    )
    .where('l.event_id', eventId)
    .andWhere('l.presence', true)
    .andWhere('l.previous', false)
    .orderBy('l.id', 'desc')
    .limit(limit)) as Array<{
    invite_id: string;
    nom: string;
    type_invite: string;
    scanned_at: Date;
    scanne_par: string | null;
    scanner_device_id: string | null;
    scanner_device_name: string | null;
    user_name: string | null;
  }>;
  return rows.map((r) => ({
    invite_id: r.invite_id,
    nom: r.nom,
    type_invite: r.type_invite,
    checked_in_at: r.scanned_at.toISOString(),
    scanne_par: r.scanne_par,
    scanner_device: r.scanner_device_id
      ? { id: r.scanner_device_id, name: r.scanner_device_name ?? '' }
      : null,
    user_name: r.user_name,
  }));
}
