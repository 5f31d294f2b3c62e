import type { UserPayload } from '@fieldhouse/contracts';
import { acceptOpenInvitations } from '../data/invitations.ts';
import { findUserById, recordUserEventOnce, upsertUser } from '../data/users.ts';
import type { CollectionContext } from './context.ts';

/**
 * Whether a user's address may take up invitations: only when the gateway says it was verified
 * by its e-mailed link (`email_verified: true` in a user event or the JWT claims). False, absent
 * (an event or token from before issue 32) or anything else: not, since anyone can register with
 * any address (docs/collection.md, "Inviting by e-mail").
 */
const mayJoinByEmail = (user: { email_verified?: unknown }): boolean => user.email_verified === true;

/**
 * Applies a `user.created` / `user.updated` event to the users projection and, in the same
 * transaction, turns the open unexpired invitations of the user's address (the projection's,
 * after the event) into memberships when the event says that address is verified (an older
 * event arriving late, about another address, takes nothing up): once per message id, so a
 * replay changes nothing.
 * @returns false for a duplicate message.
 */
export function applyUserEvent(
  ctx: Pick<CollectionContext, 'inTransaction'>,
  messageId: string,
  user: UserPayload,
): Promise<boolean> {
  return ctx.inTransaction(async (trx) => {
    if (!(await recordUserEventOnce(trx, messageId))) return false;
    await upsertUser(trx, user);
    const current = await findUserById(trx, user.id);
    const sameAddress = current?.email.toLowerCase() === user.email.toLowerCase();
    if (current && sameAddress && mayJoinByEmail(user))
      await acceptOpenInvitations(trx, current.id, current.email);
    return true;
  });
}

/**
 * Turns the open unexpired invitations of a caller's address (their JWT claims) into
 * memberships, when the claims say that address is verified (`email_verified: true`): run when a
 * caller is first seen by this process or their claims changed (verifying the address changes
 * them), so an invitation made after the user registered is taken up at their next request.
 * @returns the workspaces joined (none for an unverified address).
 */
export const acceptInvitationsOfCaller = (
  ctx: Pick<CollectionContext, 'inTransaction'>,
  caller: { id: number; email: string; email_verified?: boolean },
): Promise<number[]> =>
  mayJoinByEmail(caller)
    ? ctx.inTransaction((trx) => acceptOpenInvitations(trx, caller.id, caller.email))
    : Promise.resolve([]);
