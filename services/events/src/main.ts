import { createKnex } from '@fieldhouse/db';
import { startServer } from '@fieldhouse/http';
import { jwksKeyResolver } from '@fieldhouse/internal-auth';
import { createLogger } from '@fieldhouse/logger';
import { createEventsApp } from './app.ts';
import { loadEventsConfig } from './config.ts';

/** Events service process: configuration, wiring, HTTP server with graceful shutdown. */
const config = loadEventsConfig();
const logger = createLogger({ service: 'events', level: config.LOG_LEVEL });
const db = createKnex(config.DATABASE_URL);
const { app, lifecycle } = createEventsApp({
  logger,
  db,
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
  onShutdown: [() => db.destroy()],
  handleSignals: true,
});
