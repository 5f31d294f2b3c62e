import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import { startEmailWorker, type Mailer } from '@fieldhouse/mail';
import { processOnce, type Broker } from '@fieldhouse/messaging';

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
    broker: opts.broker,
    mailer: opts.mailer,
    logger: opts.logger,
    exchange: Exchanges.events,
    queue: 'events.email',
    ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}),
    sentLog: {
      runOnce: (messageId, send) =>
        processOnce(opts.db, 'processed_messages', 'events.email', messageId, send),
    },
  });
}
