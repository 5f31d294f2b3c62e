import { validationFailed } from '@fieldhouse/problem';
import { EmailTakenError, insertInvite, type Invite, type InviteInput } from '../data/invites.ts';
import { queueEmail } from '../data/outbox.ts';
import type { EventRow } from '../data/events.ts';
import { invitationEmail } from '../domain/invitation-email.ts';
import type { EventsContext } from './context.ts';

/** The e-mail is used by another invite of the event: 422, as Laravel's `unique` rule. */
export const emailTakenProblem = () =>
  validationFailed({ email: ['This e-mail is already invited to the event.'] }, { code: 'email_taken' });

/**
 * Creates an invite and queues its invitation e-mail (with the QR code) in the same transaction,
 * then kicks the outbox relay.
 * @throws ProblemError 422 `email_taken` when the event already has an invite with this e-mail.
 */
export async function createInvite(ctx: EventsContext, event: EventRow, input: InviteInput): Promise<Invite> {
  try {
    const invite = await ctx.db.transaction(async (trx) => {
      const created = await insertInvite(trx, event.id, input);
      await queueEmail(trx, await invitationEmail({ ...created, event }));
      return created;
    });
    ctx.outboxWritten();
    return invite;
  } catch (err) {
    if (err instanceof EmailTakenError) throw emailTakenProblem();
    throw err;
  }
}
