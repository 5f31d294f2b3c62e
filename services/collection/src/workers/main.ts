import { createKnex } from '@fieldhouse/db';
import { serveWorkerLiveness } from '@fieldhouse/http';
import { createLogger, redactCredentials } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker, OutboxRelay, stopOnSignals } from '@fieldhouse/messaging';
import { blobStoreFrom } from '../blob/blob-config.ts';
import { loadCollectionConfig } from '../config.ts';
import { startCollectionEmailWorker } from './email.ts';
import { startExportWorker, sweepExports } from './exports.ts';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import { startCollectionWebhookWorker } from './webhooks.ts';

/**
 * Collection worker process (`npm run worker -w @fieldhouse/collection`): the e-mail worker,
 * the export worker (and its dead-letter consumer), the webhook delivery worker (`WEBHOOK_*`), the export sweep (expired files, jobs whose
 * lease lapsed) every EXPORT_SWEEP_SECONDS, and an outbox relay (the e-mails of finished
 * exports). Variables: DATABASE_URL, AMQP_URL, AMQP_PREFIX, BLOB_STORE with BLOB_DIR or S3_*, SMTP_URL (default
 * smtp://127.0.0.1:1025), MAIL_FROM, EXPORT_TTL_HOURS, EXPORT_LEASE_SECONDS (renewed every third
 * of it), EXPORT_SWEEP_SECONDS, PUBLIC_URL (links in e-mails). Stops cleanly on SIGINT/SIGTERM.
 */
const config = loadCollectionConfig();
const logger = createLogger({ service: 'collection-worker', level: config.LOG_LEVEL });
// GET /healthz on HEALTH_PORT while the event loop turns (docs/reliability.md, "Liveness"),
// served before any connection: a broker or store away at start must not fail liveness.
const liveness = await serveWorkerLiveness(logger);
// As many connections as the API process: exports, e-mails and the webhook delivery worker
// (128 fan-outs and up to 128 attempts in flight) share them.
const db = createKnex(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const broker = new Broker({
  url: config.AMQP_URL,
  logger,
  name: 'collection-worker',
  prefix: config.AMQP_PREFIX,
});
const blobs = blobStoreFrom(config);
const relay = new OutboxRelay({ knex: db, table: 'outbox', broker, logger });
relay.start();
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const email = await startCollectionEmailWorker({ broker, db, mailer, logger });
const leaseMs = config.EXPORT_LEASE_SECONDS * 1000;
const exportsWorker = await startExportWorker({
  broker,
  db,
  blobs,
  logger,
  settings: {
    ttlHours: config.EXPORT_TTL_HOURS,
    leaseMs,
    heartbeatMs: Math.floor(leaseMs / 3),
    publicUrl: config.PUBLIC_URL,
  },
  onOutbox: () => relay.kick(),
});
const webhooks = await startCollectionWebhookWorker({
  broker,
  db,
  logger,
  outboxWritten: () => relay.kick(),
  publicUrl: config.PUBLIC_URL,
  ...webhookWorkerSettings(config),
});
const sweep = setInterval(() => {
  sweepExports(db, blobs).then(
    (r) => {
      if (r.deleted || r.requeued) logger.info('export sweep', r);
      if (r.requeued) relay.kick();
    },
    (err: unknown) => logger.warn('export sweep failed', { err }),
  );
}, config.EXPORT_SWEEP_SECONDS * 1000);
logger.info('collection worker started', { smtp: redactCredentials(config.SMTP_URL) });

stopOnSignals(logger, [
  () => liveness.close(),
  () => clearInterval(sweep),
  () => webhooks.close(),
  () => exportsWorker.close(),
  () => email.close(),
  () => relay.stop(),
  () => broker.close(),
  () => mailer.close(),
  () => db.destroy(),
  async () => blobs.close?.(),
]);
