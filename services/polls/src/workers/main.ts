import { MongoClient } from 'mongodb';
import { serveWorkerLiveness } from '@fieldhouse/http';
import { createLogger, redactCredentials } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker, stopOnSignals } from '@fieldhouse/messaging';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import { loadPollsWorkerConfig } from '../config.ts';
import { startPollsEmailWorker } from './email-worker.ts';
import { startPollsWebhookWorker } from './webhooks.ts';

/**
 * Polls worker process: sends the e-mails queued by the service (one-time passwords, disabled
 * webhooks) and delivers its webhooks (the `WEBHOOK_*` settings).
 */
const config = loadPollsWorkerConfig();
const logger = createLogger({ service: 'polls-worker', level: config.LOG_LEVEL });
// GET /healthz on HEALTH_PORT while the event loop turns (docs/reliability.md, "Liveness"),
// served before any connection: a broker or store away at start must not fail liveness.
const liveness = await serveWorkerLiveness(logger);
// A handler whose MongoDB connection brings no answer fails and is retried (the consumer's
// backoff), instead of holding its message until RabbitMQ's acknowledgement timeout.
const mongo = await MongoClient.connect(config.MONGO_URL, {
  serverSelectionTimeoutMS: 10_000,
  socketTimeoutMS: config.MONGO_SOCKET_TIMEOUT_MS,
});
const broker = new Broker({ url: config.AMQP_URL, logger, name: 'polls-worker', prefix: config.AMQP_PREFIX });
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const db = mongo.db(config.MONGO_DB);
const worker = await startPollsEmailWorker({ broker, mailer, db, logger });
const webhooks = await startPollsWebhookWorker({
  broker,
  db,
  logger,
  publicUrl: config.PUBLIC_URL,
  ...webhookWorkerSettings(config),
});
logger.info('polls e-mail and webhook workers started', { smtp: redactCredentials(config.SMTP_URL) });

stopOnSignals(logger, [
  () => liveness.close(),
  () => webhooks.close(),
  () => worker.close(),
  () => mailer.close(),
  () => broker.close(),
  () => mongo.close(),
]);
