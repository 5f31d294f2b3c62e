import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import { processedMessagesLog, startEmailWorker, type Mailer } from '@fieldhouse/mail';
import type { Broker } from '@fieldhouse/messaging';

/** Queue of the events e-mail jobs (bound to `email.requested` on the events exchange). */
const EVENTS_EMAIL_QUEUE = 'events.email';

/**
 * The events service's e-mail worker: consumes its `email.requested` jobs (invitations with
 * their QR code) from the `events.email` queue and sends each once over SMTP, the sent ids being
 * recorded in `processed_messages` (consumer `events.email`). Retries and dead letters: libs/mail.
 */
export function startEventsEmailWorker(opts: {
  broker: Broker;
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  retryDelaysMs?: number[];
}) {
  return startEmailWorker({
    ...opts,
    exchange: Exchanges.events,
    queue: EVENTS_EMAIL_QUEUE,
    sentLog: processedMessagesLog(opts.db, EVENTS_EMAIL_QUEUE),
  });
}
