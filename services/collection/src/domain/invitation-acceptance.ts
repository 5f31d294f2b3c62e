import type { Knex } from 'knex';
import type { UserPayload } from '@fieldhouse/contracts';
import { acceptOpenInvitations } from '../data/invitations.ts';
import { users } from '../users-projection.ts';

/**
 * Whether a user's address may take up invitations: not when the gateway says it is unverified
 * (`email_verified: false` in a user event or JWT claims, once the gateway sends it); an event
 * without the flag is trusted, as the projection trusts its e-mail (docs/collection.md,
 * "Inviting by e-mail").
 */
export const mayJoinByEmail = (user: object): boolean =>
  (user as { email_verified?: unknown }).email_verified !== false;

/**
 * Applies a `user.created` / `user.updated` event to the users projection and, in the same
 * transaction, turns the open unexpired invitations of the user's address (the projection's,
 * after the event) into memberships: once per message id, so a replay changes nothing.
 * @returns false for a duplicate message.
 */
export function applyUserEvent(db: Knex, messageId: string, user: UserPayload): Promise<boolean> {
  const { processedMessagesTable, consumer } = users.options;
  return db.transaction(async (trx) => {
    const inserted = await trx(processedMessagesTable)
      .insert({ consumer, message_id: messageId })
      .onConflict(['consumer', 'message_id'])
      .ignore()
      .returning('message_id');
    if (!inserted.length) return false;
    await users.upsertVersion(trx, user);
    const current = await users.findById(trx, user.id);
    if (current && mayJoinByEmail(user)) await acceptOpenInvitations(trx, current.id, current.email);
    return true;
  });
}

/**
 * Turns the open unexpired invitations of a caller's address (their JWT claims) into
 * memberships: run when a caller is first seen by this process or their claims changed, so an
 * invitation made after the user registered is taken up at their next request (sign-in).
 * @returns the workspaces joined.
 */
export const acceptInvitationsOfCaller = (
  db: Knex,
  caller: { id: number; email: string },
): Promise<number[]> =>
  mayJoinByEmail(caller)
    ? db.transaction((trx) => acceptOpenInvitations(trx, caller.id, caller.email))
    : Promise.resolve([]);
