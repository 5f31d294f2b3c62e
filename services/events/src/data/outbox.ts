import type { Knex } from 'knex';
import { EMAIL_REQUESTED, envelope, Exchanges, type EmailRequested } from '@fieldhouse/contracts';
import { writeOutbox } from '@fieldhouse/messaging';

/** Queues an e-mail job (`email.requested` on the `events` exchange) in the caller's transaction. */
export async function queueEmail(trx: Knex.Transaction, email: EmailRequested): Promise<void> {
  await writeOutbox(trx, 'outbox', Exchanges.events, envelope(Exchanges.events, EMAIL_REQUESTED, email));
}
