import type { Db } from 'mongodb';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import { startEmailWorker, type Mailer } from '@fieldhouse/mail';
import type { Broker } from '@fieldhouse/messaging';
import { collections } from '../data/collections.ts';
import { mongoSentLog } from '../data/sent-log.ts';

/** Queue of the polls mail worker (bound to `email.requested` on the `polls` exchange). */
export const POLLS_EMAIL_QUEUE = 'polls.email';

/**
 * Starts the polls e-mail worker: one-time password e-mails from the `polls` exchange, sent
 * once per message id (MongoDB sent log), retried with backoff, then dead-lettered.
 */
export function startPollsEmailWorker(opts: {
  broker: Broker;
  mailer: Mailer;
  db: Db;
  logger: Logger;
  retryDelaysMs?: number[];
}) {
  return startEmailWorker({
    ...opts,
    exchange: Exchanges.polls,
    queue: POLLS_EMAIL_QUEUE,
    sentLog: mongoSentLog(collections(opts.db)),
  });
}
