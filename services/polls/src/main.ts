import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { startServer } from '@fieldhouse/http';
import { jwksKeyResolver } from '@fieldhouse/internal-auth';
import { createLogger } from '@fieldhouse/logger';
import { createPollsApp } from './app.ts';
import { loadPollsConfig } from './config.ts';

/** Polls service process: configuration, wiring, HTTP server with graceful shutdown. */
const config = loadPollsConfig();
const logger = createLogger({ service: 'polls', level: config.LOG_LEVEL });
const mongo = new MongoClient(config.MONGO_URL, { serverSelectionTimeoutMS: 5_000 });
await mongo.connect();
const redis = createClient({ url: config.REDIS_URL });
redis.on('error', (err: Error) => logger.warn('redis error', { error: err.message }));
await redis.connect();
const { app, lifecycle } = createPollsApp({
  logger,
  mongo: mongo.db(config.MONGO_DB),
  redis,
  keys: jwksKeyResolver(config.GATEWAY_JWKS_URL),
  issuer: config.INTERNAL_JWT_ISSUER,
  bodyLimit: config.BODY_LIMIT,
});
await startServer(app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  lifecycle,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onShutdown: [() => mongo.close(), () => redis.close()],
  handleSignals: true,
});
