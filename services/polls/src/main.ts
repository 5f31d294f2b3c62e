import { MongoClient } from 'mongodb';
import { startServer } from '@fieldhouse/http';
import { jwksKeyResolver } from '@fieldhouse/internal-auth';
import { createLogger } from '@fieldhouse/logger';
import { Broker } from '@fieldhouse/messaging';
import { pollsOutboxRelay } from './outbox-relay.ts';
import { webhookApiSettings } from '@fieldhouse/webhooks';
import { createPollsApp } from './app.ts';
import { createPollsRedis } from './data/redis.ts';
import { loadPollsConfig } from './config.ts';

/** Polls service process: configuration, wiring (MongoDB, Redis, RabbitMQ), HTTP server with graceful shutdown. */
const config = loadPollsConfig();
const logger = createLogger({ service: 'polls', level: config.LOG_LEVEL });
const mongo = new MongoClient(config.MONGO_URL, {
  // With the socket limit below, a write cut by a hung store and retried once by the driver
  // answers within about 3 + 2 s, inside a client's 10 s (the fault suite's store-stop).
  serverSelectionTimeoutMS: 2_000,
  maxPoolSize: config.MONGO_MAX_POOL_SIZE,
  // An operation whose connection brings no answer for this long fails (503 store_unavailable)
  // instead of holding its request until the gateway's 504 (docs/reliability.md).
  socketTimeoutMS: config.MONGO_SOCKET_TIMEOUT_MS,
  // The same limit for opening a connection: once a hung store has the pool cleared, a new
  // connection's handshake would otherwise wait the driver's 30 s default (the fault suite's
  // store-stop saw votes left unanswered past the client's 10 s that way).
  connectTimeoutMS: config.MONGO_SOCKET_TIMEOUT_MS,
});
await mongo.connect();
// The store watch's own connection: its probes never wait behind the service's operations,
// and a probe to a hung store is cut by the socket time limit instead of piling up.
const probeClient = new MongoClient(config.MONGO_URL, {
  serverSelectionTimeoutMS: 1_000,
  connectTimeoutMS: 1_000,
  socketTimeoutMS: 1_000,
  maxPoolSize: 1,
});
const redis = createPollsRedis(config.REDIS_URL, logger);
await redis.connect();
const broker = new Broker({ url: config.AMQP_URL, logger, name: 'polls', prefix: config.AMQP_PREFIX });
const relay = pollsOutboxRelay(mongo.db(config.MONGO_DB), broker, logger);
relay.start();
const polls = createPollsApp({
  logger,
  mongo: mongo.db(config.MONGO_DB),
  redis,
  outboxWritten: () => relay.kick(),
  redisPrefix: config.REDIS_PREFIX,
  keys: jwksKeyResolver(config.GATEWAY_JWKS_URL),
  issuer: config.INTERNAL_JWT_ISSUER,
  bodyLimit: config.BODY_LIMIT,
  webhooks: webhookApiSettings(config),
  storeProbe: () =>
    probeClient
      .db(config.MONGO_DB)
      .collection('polls')
      .findOne({}, { projection: { _id: 1 } }),
  settings: {
    otpTtlSeconds: config.OTP_TTL_SECONDS,
    otpMaxAttempts: config.OTP_MAX_ATTEMPTS,
    commentsPerMinute: config.COMMENTS_PER_MINUTE,
    reactionsPerMinute: config.REACTIONS_PER_MINUTE,
    sseHeartbeatMs: config.SSE_HEARTBEAT_MS,
    sseWritesPerSecond: config.SSE_WRITES_PER_SECOND,
    resultsMaxStaleMs: config.RESULTS_MAX_STALE_MS,
    reconcileIntervalMs: config.RECONCILE_INTERVAL_MS,
    reconcileGraceMs: config.RECONCILE_GRACE_MS,
    endedPollsIntervalMs: config.ENDED_POLLS_INTERVAL_MS,
    publicUrl: config.PUBLIC_URL,
  },
});
await startServer(polls.app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  lifecycle: polls.lifecycle,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onShutdown: [
    () => polls.close(),
    () => relay.stop(),
    () => broker.close(),
    () => mongo.close(),
    () => probeClient.close(),
    () => redis.close(),
  ],
  handleSignals: true,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
});
