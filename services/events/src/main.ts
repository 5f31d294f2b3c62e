import { createKnex, listenTo, postgresProbe } from '@fieldhouse/db';
import { startServer } from '@fieldhouse/http';
import { jwksKeyResolver } from '@fieldhouse/internal-auth';
import { createLogger } from '@fieldhouse/logger';
import { Broker, OutboxRelay, startUserEventsConsumer } from '@fieldhouse/messaging';
import { webhookApiSettings } from '@fieldhouse/webhooks';
import { createEventsApp } from './app.ts';
import { loadEventsConfig } from './config.ts';
import { applyUserEvent } from './domain/users.ts';

/**
 * Events service process: configuration, Knex, RabbitMQ (outbox relay of the invitation e-mail
 * jobs and webhook events, woken by `NOTIFY outbox`; consumer of the gateway's user events into
 * the users projection), HTTP server with graceful shutdown. The e-mail and webhook delivery
 * workers are their own process (`workers/main.ts`).
 */
const config = loadEventsConfig();
const logger = createLogger({ service: 'events', level: config.LOG_LEVEL });
const db = createKnex(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const broker = new Broker({ url: config.AMQP_URL, logger, name: 'events', prefix: config.AMQP_PREFIX });
const relay = new OutboxRelay({ knex: db, table: 'outbox', broker, logger });
// Webhook events are written to the outbox by triggers, which notify `outbox` at commit.
const outboxNotices = listenTo(config.DATABASE_URL, 'outbox', () => relay.kick(), logger);
// The store watch's own connection (503 store_unavailable at once while PostgreSQL hangs).
const storeProbe = postgresProbe(config.DATABASE_URL, 2_000);
const { app, lifecycle, ctx } = createEventsApp({
  logger,
  db,
  keys: jwksKeyResolver(config.GATEWAY_JWKS_URL),
  issuer: config.INTERNAL_JWT_ISSUER,
  bodyLimit: config.BODY_LIMIT,
  publicUrl: config.PUBLIC_URL,
  webhooks: webhookApiSettings(config),
  ...(config.EVENTS_CODE_SIGNING_SECRET ? { codeSigningSecret: config.EVENTS_CODE_SIGNING_SECRET } : {}),
  outboxWritten: () => relay.kick(),
  storeProbe: storeProbe.probe,
});
const users = await startUserEventsConsumer({
  broker,
  logger,
  queue: 'events.users',
  apply: async (messageId, user) => {
    await applyUserEvent(ctx, messageId, user);
  },
});
relay.start();
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
  ],
  handleSignals: true,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
});
