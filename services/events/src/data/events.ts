import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db, Tx } from './tx.ts';

/** An event row as stored. */
export interface EventRow {
  id: string;
  owner_id: number;
  name: string;
  description: string;
  start_date: string;
  end_date: string | null;
  location: string;
}

export interface EventInput {
  name: string;
  description?: string;
  start_date: string;
  end_date?: string | null;
  location: string;
}

/** The caller's relation to an event. */
export type EventRole = 'owner' | 'staff';

const COLUMNS = ['id', 'owner_id', 'name', 'description', 'start_date', 'end_date', 'location'];

/** Maps the API fields to columns (the zone-less dates are also stored as timestamps). */
function columns(input: Partial<EventInput>): Record<string, unknown> {
  const row: Record<string, unknown> = { ...input };
  if (input.start_date !== undefined) row.start_at = input.start_date;
  if (input.end_date !== undefined) row.end_at = input.end_date;
  return row;
}

/** Creates an event owned by `ownerId`; resolves with the stored row. */
export async function insertEvent(db: Db, ownerId: number, input: EventInput): Promise<EventRow> {
  const [row] = await db('events')
    .insert({ id: randomUUID(), owner_id: ownerId, description: '', ...columns(input) })
    .returning(COLUMNS);
  return row as EventRow;
}

/** Where-clause of the events `userId` may see: those they own or are staff of. */
const ownerOrStaff = (db: Db, userId: number) => (w: Knex.QueryBuilder) =>
  w
    .where('owner_id', userId)
    .orWhereExists(
      db('event_staff')
        .select(db.raw('1'))
        .whereRaw('event_staff.event_id = events.id')
        .andWhere('user_id', userId),
    );

/**
 * Events the user owns or is staff of, ordered by start date then id. `when`: `upcoming`
 * (not yet ended: end, else start, at or after `now`), `past` (ended before `now`), or all.
 * `now` is a zone-less date-time compared with the stored ones.
 */
export async function listEventsFor(
  db: Db,
  userId: number,
  when: 'upcoming' | 'past' | 'all',
  now: string,
): Promise<EventRow[]> {
  const q = db('events')
    .select(COLUMNS)
    .where(ownerOrStaff(db, userId))
    .orderBy([{ column: 'start_at' }, { column: 'id' }]);
  if (when === 'upcoming') q.whereRaw('coalesce(end_at, start_at) >= ?::timestamp', [now]);
  if (when === 'past') q.whereRaw('coalesce(end_at, start_at) < ?::timestamp', [now]);
  return (await q) as EventRow[];
}

/** The event and the user's role in it, or undefined when it does not exist or they have none. */
export async function findEventFor(
  db: Db,
  eventId: string,
  userId: number,
): Promise<{ event: EventRow; role: EventRole } | undefined> {
  const row = (await db('events')
    .select([...COLUMNS, db.raw('(owner_id = ?) AS is_owner', [userId])])
    .where('id', eventId)
    .andWhere(ownerOrStaff(db, userId))
    .first()) as (EventRow & { is_owner: boolean }) | undefined;
  if (!row) return undefined;
  const { is_owner, ...event } = row;
  return { event, role: is_owner ? 'owner' : 'staff' };
}

/** The event with this id, or undefined (no access check: scanner devices, whose event is in their credential). */
export async function findEvent(db: Db, eventId: string): Promise<EventRow | undefined> {
  return (await db('events').select(COLUMNS).where('id', eventId).first()) as EventRow | undefined;
}

/** Updates the given fields; resolves with the new row. */
export async function updateEvent(db: Db, eventId: string, patch: Partial<EventInput>): Promise<EventRow> {
  const [row] = await db('events')
    .where('id', eventId)
    .update({ ...columns(patch), updated_at: db.fn.now() })
    .returning(COLUMNS);
  return row as EventRow;
}

/** Deletes an event with its staff, invites, history, nonces and attendance counters (two statements: run it in a transaction). */
export async function deleteEvent(tx: Tx, eventId: string): Promise<void> {
  await tx('events').where('id', eventId).delete();
  // After the cascade, whose delete of the invites wrote their counters' last change.
  await tx('invite_counts').where('event_id', eventId).delete();
}

/** Every event the user owns or staffs, with their role in it, by start date. */
export async function eventRolesOf(db: Db, userId: number): Promise<Array<{ id: string; role: EventRole }>> {
  const rows = (await db('events')
    .select(['id', db.raw('(owner_id = ?) AS is_owner', [userId])])
    .where(ownerOrStaff(db, userId))
    .orderBy([{ column: 'start_at' }, { column: 'id' }])) as Array<{ id: string; is_owner: boolean }>;
  return rows.map((r) => ({ id: r.id, role: r.is_owner ? 'owner' : 'staff' }));
}
