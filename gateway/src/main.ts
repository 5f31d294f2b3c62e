import { startServer } from '@fieldhouse/http';
import { createLogger } from '@fieldhouse/logger';
import { composeGateway } from './compose.ts';
import { loadGatewayConfig } from './config.ts';

/**
 * Gateway process: configuration, wiring, the public HTTP server with graceful shutdown on
 * SIGTERM/SIGINT, and `/metrics` on the internal METRICS_HOST:METRICS_PORT.
 */
const config = loadGatewayConfig();
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
const gateway = await composeGateway(config, logger);
await startServer(gateway.app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  lifecycle: gateway.lifecycle,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onShutdown: [gateway.close],
  handleSignals: true,
  metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
  // A client that half-closes after its request still gets the answer (docs/reliability.md).
  answerHalfClosed: true,
});
