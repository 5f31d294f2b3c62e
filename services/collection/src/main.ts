import { createKnex, listenTo, postgresProbe } from '@fieldhouse/db';
import { startServer } from '@fieldhouse/http';
import { jwksKeyResolver } from '@fieldhouse/internal-auth';
import { createLogger } from '@fieldhouse/logger';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { webhookApiSettings } from '@fieldhouse/webhooks';
import { createCollectionApp } from './app.ts';
import { blobStoreFrom } from './blob/blob-config.ts';
import { loadCollectionConfig } from './config.ts';
import { startUsersProjection } from './workers/user-events.ts';

/**
 * Collection service process: configuration, Knex, RabbitMQ (outbox relay for e-mail jobs and
 * webhook events, woken by `NOTIFY outbox`; users projection consumer), the filesystem blob store, HTTP server with graceful shutdown.
 */
const config = loadCollectionConfig();
const logger = createLogger({ service: 'collection', level: config.LOG_LEVEL });
const db = createKnex(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const broker = new Broker({ url: config.AMQP_URL, logger, name: 'collection', prefix: config.AMQP_PREFIX });
const relay = new OutboxRelay({ knex: db, table: 'outbox', broker, logger });
relay.start();
// Webhook events are written to the outbox by triggers, which notify `outbox` at commit.
const outboxNotices = listenTo(config.DATABASE_URL, 'outbox', () => relay.kick(), logger);
const users = await startUsersProjection(broker, db, logger);
const blobs = blobStoreFrom(config);
// The store watch's own connection (503 store_unavailable at once while PostgreSQL hangs).
const storeProbe = postgresProbe(config.DATABASE_URL, 2_000);
const { app, lifecycle } = createCollectionApp({
  logger,
  db,
  keys: jwksKeyResolver(config.GATEWAY_JWKS_URL),
  issuer: config.INTERNAL_JWT_ISSUER,
  bodyLimit: config.BODY_LIMIT,
  blobs,
  photoMaxBytes: config.PHOTO_MAX_BYTES,
  outboxWritten: () => relay.kick(),
  webhooks: webhookApiSettings(config),
  publicUrl: config.PUBLIC_URL,
  storeProbe: storeProbe.probe,
});
await startServer(app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  lifecycle,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onShutdown: [
    () => storeProbe.close(),
    () => users.close(),
    () => outboxNotices.close(),
    () => relay.stop(),
    () => broker.close(),
    () => db.destroy(),
    async () => blobs.close?.(),
  ],
  handleSignals: true,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
});
