import type { Db } from './tx.ts';

/** A staff member of an event (check-in role), with their projected name and e-mail. */
export interface StaffRow {
  user_id: number;
  name: string | null;
  email: string | null;
  granted_at: string;
}

/** Gives `userId` the check-in role on the event (idempotent). */
export async function grantStaff(db: Db, eventId: string, userId: number, grantedBy: number): Promise<void> {
  await db('event_staff')
    .insert({ event_id: eventId, user_id: userId, granted_by: grantedBy })
    .onConflict(['event_id', 'user_id'])
    .ignore();
}

/** Staff of the event, oldest grant first. */
export async function listStaff(db: Db, eventId: string): Promise<StaffRow[]> {
  const rows = await db('event_staff as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select('s.user_id', 'u.name', 'u.email', 's.created_at as granted_at')
    .where('s.event_id', eventId)
    .orderBy([{ column: 's.created_at' }, { column: 's.user_id' }]);
  return rows.map((r: StaffRow & { granted_at: Date }) => ({ ...r, granted_at: r.granted_at.toISOString() }));
}

/** Removes the role; resolves false when the user was not staff. */
export async function revokeStaff(db: Db, eventId: string, userId: number): Promise<boolean> {
  return (await db('event_staff').where({ event_id: eventId, user_id: userId }).delete()) > 0;
}
