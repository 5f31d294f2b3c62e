import { createKnex } from '@fieldhouse/db';
import { serveWorkerLiveness } from '@fieldhouse/http';
import { createLogger, redactCredentials } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker, stopOnSignals } from '@fieldhouse/messaging';
import { loadEventsConfig } from '../config.ts';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import { startEventsEmailWorker } from './email.ts';
import { startEventsWebhookWorker } from './webhooks.ts';

/**
 * Events worker process: e-mail jobs and webhook deliveries (`npm run worker -w @fieldhouse/events`): DATABASE_URL, AMQP_URL,
 * AMQP_PREFIX, SMTP_URL (default smtp://127.0.0.1:1025), MAIL_FROM, and the `WEBHOOK_*` settings. Stops cleanly on SIGINT/SIGTERM.
 */
const config = loadEventsConfig();
const logger = createLogger({ service: 'events-worker', level: config.LOG_LEVEL });
// GET /healthz on HEALTH_PORT while the event loop turns (docs/reliability.md, "Liveness"),
// served before any connection: a broker or store away at start must not fail liveness.
const liveness = await serveWorkerLiveness(logger);
// As many connections as the API process: the delivery worker keeps 128 fan-outs and up to 128
// attempts in flight, each a statement (docs/benchmarks.md, "Webhooks").
const db = createKnex(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const broker = new Broker({
  url: config.AMQP_URL,
  logger,
  name: 'events-worker',
  prefix: config.AMQP_PREFIX,
});
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const worker = await startEventsEmailWorker({ broker, db, mailer, logger });
const webhooks = await startEventsWebhookWorker({
  broker,
  db,
  logger,
  publicUrl: config.PUBLIC_URL,
  ...webhookWorkerSettings(config),
});
logger.info('events e-mail and webhook workers started', { smtp: redactCredentials(config.SMTP_URL) });

stopOnSignals(logger, [
  () => liveness.close(),
  () => webhooks.close(),
  () => worker.close(),
  () => broker.close(),
  () => mailer.close(),
  () => db.destroy(),
]);
