import type { BodyReader } from '@fieldhouse/http';
import {
  grantStaff as grantStaffRow,
  listStaff as listStaffRows,
  revokeStaff as revokeStaffRow,
  type StaffRow,
} from '../data/staff.ts';
import { findUserByEmail, findUserById } from '../data/users.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext } from './context.ts';
import { problems } from './problems.ts';

export type { StaffRow };

/**
 * The staff of the event (check-in role), oldest grant first. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff.
 */
export async function listStaff(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string },
): Promise<StaffRow[]> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  return listStaffRows(ctx.db, eventId);
}

/**
 * Grants the check-in role to a known user named by id or e-mail (idempotent); resolves with
 * the staff entry. Users become known when the gateway announces them or when they first call
 * this service. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.invalid (422) naming the field when no known user matches or when it names the owner.
 */
export async function grantStaff(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; staff: BodyReader<{ user_id: number } | { email: string }> },
): Promise<StaffRow> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const staff = cmd.staff();
  const byId = 'user_id' in staff;
  const user =
    'user_id' in staff
      ? await findUserById(ctx.db, staff.user_id)
      : await findUserByEmail(ctx.db, staff.email);
  const field = byId ? 'user_id' : 'email';
  if (!user)
    throw problems.invalid({
      errors: { [field]: [`No user with this ${byId ? 'id' : 'e-mail'} is known.`] },
    });
  if (user.id === event.owner_id)
    throw problems.invalid({ errors: { [field]: ['The owner already has every right on the event.'] } });
  return ctx.inTransaction(async (tx) => {
    await grantStaffRow(tx, event.id, user.id, event.owner_id);
    return (await listStaffRows(tx, event.id)).find((s) => s.user_id === user.id)!;
  });
}

/**
 * Removes the check-in role. `staffUserId` is undefined when the path did not hold an integer
 * from 1 to 2^31-1 (nobody has such an id). Owner only.
 * @throws problems.noSuch (404) unless owner or staff, or when that user is not staff (or
 * cannot exist: the problem then names `user_id`); problems.ownerOnly (403) for staff.
 */
export async function revokeStaff(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; staffUserId: number | undefined },
): Promise<void> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const { staffUserId } = cmd;
  if (staffUserId === undefined) throw problems.noSuch({ what: 'userId' });
  if (!(await ctx.inTransaction((tx) => revokeStaffRow(tx, eventId, staffUserId))))
    throw problems.noSuch({ what: 'staff' });
}
