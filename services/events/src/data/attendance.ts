import type { Db, Tx } from './tx.ts';

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

/** The invite a check-in changed, as the UPDATE returned it. */
export interface CheckedInRow {
  id: string;
  nom: string;
  type_invite: string;
  checked_in_at: Date;
  scanne_par: string | null;
  /** People the code admits, and how many of them have arrived now. */
  seats: number;
  arrived: number;
  /** People this scan let in. */
  people: number;
}

/**
 * The conditional UPDATE of a check-in at the event's implicit entrance (no gate): only an
 * active invite of this event with `people` seats still free changes (`people` null: all the
 * seats not arrived yet, so a one-seat invite must be absent), and its history row is written
 * in the same statement. The first arrival sets `checked_in_at` and `scanne_par`. With
 * `staffUserId` it also requires that user to own or staff the event (the scanner hot path:
 * access check and check-in in one round trip). Resolves undefined when nothing changed.
 */
export async function markCheckedIn(
  db: Db,
  eventId: string,
  code: string,
  by: Scanner,
  nonce: string | null,
  staffUserId?: number,
  people: number | null = null,
): Promise<CheckedInRow | undefined> {
  const access =
    staffUserId === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM events e WHERE e.id = invites.event_id AND (e.owner_id = ?
           OR EXISTS (SELECT 1 FROM event_staff s WHERE s.event_id = e.id AND s.user_id = ?)))`;
  const { rows } = (await db.raw(
    `WITH upd AS (
       UPDATE invites SET presence = true, last_people = coalesce(?::int, seats - arrived),
         arrived = arrived + coalesce(?::int, seats - arrived),
         checked_in_at = CASE WHEN presence THEN checked_in_at ELSE coalesce(?::timestamptz, now()) END,
         scanne_par = CASE WHEN presence THEN scanne_par ELSE ? END, updated_at = now()
       WHERE code_unique = ? AND event_id = ? AND arrived < seats AND arrived + coalesce(?::int, 1) <= seats
         AND revoked_at IS NULL ${access}
       RETURNING id, nom, type_invite, checked_in_at, scanne_par, seats, arrived, last_people AS people),
     log AS (
       INSERT INTO attendance_log
         (invite_id, event_id, action, presence, previous, scanne_par, user_id, user_name, scanner_device_id,
          device, nonce, scanned_at, direction, people)
       SELECT id, ?, 'checkin', true, arrived > people, ?, ?, ?, ?, ?, ?,
         CASE WHEN arrived > people THEN coalesce(?::timestamptz, now()) ELSE checked_in_at END, 'entry', people
       FROM upd)
     SELECT * FROM upd`,
    [
      people,
      people,
      by.scannedAt,
      by.scanne_par,
      code,
      eventId,
      people,
      ...(staffUserId === undefined ? [] : [staffUserId, staffUserId]),
      eventId,
      by.scanne_par,
      by.userId,
      by.userName,
      by.deviceId,
      by.device,
      nonce,
      by.scannedAt,
    ],
  )) as { rows: CheckedInRow[] };
  return rows[0];
}

/** The invite holding a code, as a refused check-in reads it to say why. */
export interface ScannedInviteRow {
  id: string;
  event_id: string;
  nom: string;
  type_invite: string;
  presence: boolean;
  checked_in_at: Date | null;
  scanne_par: string | null;
  revoked_at: Date | null;
  seats: number;
  arrived: number;
}

/** The invite of any event with this code, or undefined. */
export async function findInviteByCode(db: Db, code: string): Promise<ScannedInviteRow | undefined> {
  return (await db('invites')
    .select(
      'id',
      'event_id',
      'nom',
      'type_invite',
      'presence',
      'checked_in_at',
      'scanne_par',
      'revoked_at',
      'seats',
      'arrived',
    )
    .where('code_unique', code)
    .first()) as ScannedInviteRow | undefined;
}

/**
 * Claims a client nonce for the event (an insert into `checkin_nonces`); resolves false when it
 * was claimed before. A concurrent claim of the same nonce waits for the first transaction.
 */
export async function claimNonce(tx: Tx, eventId: string, nonce: string): Promise<boolean> {
  const claimed = await tx('checkin_nonces')
    .insert({ event_id: eventId, nonce })
    .onConflict(['event_id', 'nonce'])
    .ignore()
    .returning('nonce');
  return claimed.length > 0;
}

/** The outcome stored for a claimed nonce (migration 008: the outcome, not an HTTP answer). */
export async function storedOutcome(tx: Tx, eventId: string, nonce: string): Promise<unknown> {
  const row = (await tx('checkin_nonces').select('outcome').where({ event_id: eventId, nonce }).first()) as
    { outcome: unknown } | undefined;
  return row?.outcome;
}

/** Stores the outcome of the scan that claimed the nonce, for later requests with it. */
export async function storeOutcome(tx: Tx, eventId: string, nonce: string, outcome: unknown): Promise<void> {
  await tx('checkin_nonces')
    .where({ event_id: eventId, nonce })
    .update({ outcome: JSON.stringify(outcome) });
}

/** An invite's name, presence and revocation, locked for a presence change; undefined when the event has no such invite. */
export async function lockInvitePresence(
  tx: Tx,
  eventId: string,
  inviteId: string,
): Promise<{ nom: string; presence: boolean; revoked_at: Date | null } | undefined> {
  return (await tx('invites')
    .select('nom', 'presence', 'revoked_at')
    .where({ id: inviteId, event_id: eventId })
    .forUpdate()
    .first()) as { nom: string; presence: boolean; revoked_at: Date | null } | undefined;
}

/**
 * Writes an invite's presence (spec 3, PUT presence) and its history row: marking present keeps
 * the first check-in time and scanner when it was present already (`previous`).
 */
export async function recordPresence(
  tx: Tx,
  eventId: string,
  inviteId: string,
  change: { presence: boolean; previous: boolean; by: Scanner },
): Promise<void> {
  const { presence, previous, by } = change;
  const at = by.scannedAt ?? new Date();
  await tx('invites')
    .where('id', inviteId)
    .update({
      presence,
      checked_in_at: presence ? (previous ? tx.raw('checked_in_at') : at) : null,
      scanne_par: presence && previous ? tx.raw('scanne_par') : by.scanne_par,
      // Present by hand: the whole party (kept when present already); absent: nobody.
      arrived: presence ? tx.raw(previous ? 'arrived' : 'seats') : 0,
      updated_at: tx.fn.now(),
    });
  await tx('attendance_log').insert({
    invite_id: inviteId,
    event_id: eventId,
    action: 'presence',
    presence,
    previous,
    scanne_par: by.scanne_par,
    user_id: by.userId,
    user_name: by.userName,
    scanner_device_id: by.deviceId,
    device: by.device,
    scanned_at: at,
  });
}

/** One entry of an invite's presence history. */
export interface HistoryEntry {
  id: number;
  action: 'presence' | 'checkin' | 'exit';
  presence: boolean;
  previous: boolean;
  scanne_par: string | null;
  user_id: number | null;
  user_name: string | null;
  /** The scanner device that made the change (null when a user did). */
  scanner_device: { id: string; name: string } | null;
  device: string | null;
  nonce: string | null;
  /** The gate of a scan (null: the implicit entrance, or a change by hand). */
  gate_id: string | null;
  /** `entry` or `exit` for scans, null for presence set by hand. */
  direction: 'entry' | 'exit' | null;
  /** People of the party the change let in or out. */
  people: number;
  scanned_at: string;
  recorded_at: string;
}

/** The invite's presence changes, oldest first. */
export async function inviteHistory(db: Db, inviteId: string): Promise<HistoryEntry[]> {
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
      'l.gate_id',
      'l.direction',
      'l.people',
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

/** How many active (non-revoked) invites the event has and how many are present, in one consistent snapshot. */
export async function countsOf(db: Db, eventId: string): Promise<{ total: number; present: number }> {
  const { rows } = (await db.raw(
    `SELECT coalesce(sum(total), 0) AS total, coalesce(sum(present), 0) AS present
     FROM invite_counts WHERE event_id = ?`,
    [eventId],
  )) as { rows: Array<{ total: string | number; present: string | number }> };
  return { total: Number(rows[0]!.total), present: Number(rows[0]!.present) };
}

/** Arrivals in one 10-minute window: its start (ISO 8601 UTC) and how many checked in. */
export interface ArrivalBucket {
  from: string;
  count: number;
}

/**
 * People of the event's present, active invites (their `arrived`) per 10-minute window of `checked_in_at`
 * (windows aligned on the clock, UTC), oldest first; windows without arrivals are left out.
 */
export async function arrivalsOf(db: Db, eventId: string): Promise<ArrivalBucket[]> {
  const { rows } = (await db.raw(
    `SELECT to_timestamp(floor(extract(epoch FROM checked_in_at) / 600) * 600) AS bucket, sum(arrived) AS n
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
export async function latestCheckins(db: Db, eventId: string, limit: number): Promise<LatestCheckin[]> {
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
