import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import { processedMessagesLog, startEmailWorker, type Mailer } from '@fieldhouse/mail';
import type { Broker } from '@fieldhouse/messaging';

/** Queue of the collection e-mail jobs (bound to `email.requested` on the collection exchange). */
const COLLECTION_EMAIL_QUEUE = 'collection.email';

/**
 * The collection service's e-mail worker (spec 6): consumes its `email.requested` jobs
 * (submission created when `notify_on_submission`, export finished or failed) from the
 * `collection.email` queue and sends each once over SMTP, the sent ids being recorded in
 * `processed_messages` (consumer `collection.email`). Retries with backoff and the dead-letter
 * queue after the last attempt: libs/mail and libs/messaging.
 */
export function startCollectionEmailWorker(opts: {
  broker: Broker;
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  retryDelaysMs?: number[];
}) {
  return startEmailWorker({
    ...opts,
    exchange: Exchanges.collection,
    queue: COLLECTION_EMAIL_QUEUE,
    sentLog: processedMessagesLog(opts.db, COLLECTION_EMAIL_QUEUE),
  });
}
