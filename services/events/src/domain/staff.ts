import type { BodyReader } from '@fieldhouse/http';
import { notFound, unprocessable } from '@fieldhouse/problem';
import {
  grantStaff as grantStaffRow,
  listStaff as listStaffRows,
  revokeStaff as revokeStaffRow,
  type StaffRow,
} from '../data/staff.ts';
import { findUserByEmail, findUserById } from '../data/users.ts';
import { ownedEventOf } from './access.ts';
import type { EventsContext } from './context.ts';

export type { StaffRow };

/** Largest `integer` column value: user ids above it name nobody. */
const USER_ID_MAX = 2_147_483_647;

/**
 * The staff of the event (check-in role), oldest grant first. Owner only.
 * @throws ProblemError 404 unless owner or staff; 403 for staff.
 */
export async function listStaff(
  ctx: EventsContext,
  cmd: { userId: number; eventId: string },
): Promise<StaffRow[]> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  return listStaffRows(ctx.db, event.id);
}

/**
 * Grants the check-in role to a known user named by id or e-mail (idempotent); resolves with
 * the staff entry. Users become known when the gateway announces them or when they first call
 * this service. Owner only.
 * @throws ProblemError 404 unless owner or staff; 403 for staff; 422 naming the field when no
 * known user matches or when it names the owner.
 */
export async function grantStaff(
  ctx: EventsContext,
  cmd: { userId: number; eventId: string; staff: BodyReader<{ user_id: number } | { email: string }> },
): Promise<StaffRow> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  const staff = cmd.staff();
  const byId = 'user_id' in staff;
  const user =
    'user_id' in staff
      ? await findUserById(ctx.db, staff.user_id)
      : await findUserByEmail(ctx.db, staff.email);
  const field = byId ? 'user_id' : 'email';
  if (!user) throw unprocessable(field, `No user with this ${byId ? 'id' : 'e-mail'} is known.`);
  if (user.id === event.owner_id)
    throw unprocessable(field, 'The owner already has every right on the event.');
  await grantStaffRow(ctx.db, event.id, user.id, event.owner_id);
  return (await listStaffRows(ctx.db, event.id)).find((s) => s.user_id === user.id)!;
}

/**
 * Removes the check-in role. `staffUserId` is undefined when the path did not hold an integer
 * from 1 to 2^31-1 (nobody has such an id). Owner only.
 * @throws ProblemError 404 unless owner or staff, or when that user is not staff (or cannot
 * exist: the problem then names `user_id`); 403 for staff.
 */
export async function revokeStaff(
  ctx: EventsContext,
  cmd: { userId: number; eventId: string; staffUserId: number | undefined },
): Promise<void> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  if (cmd.staffUserId === undefined)
    throw notFound(`Nothing has this user_id: ids are integers from 1 to ${USER_ID_MAX}.`, {
      errors: { user_id: [`The user_id must be an integer from 1 to ${USER_ID_MAX}.`] },
    });
  if (!(await revokeStaffRow(ctx.db, event.id, cmd.staffUserId)))
    throw notFound('This user is not staff of the event.');
}
