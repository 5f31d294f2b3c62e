import express, { type Express } from 'express';
import type { Logger } from '@fieldhouse/logger';
import { errorMiddleware, notFoundHandler } from '@fieldhouse/problem';
import { metricsHandler } from './metrics.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * The app of a process's internal metrics port: `GET /metrics` (Prometheus text format, the
 * process registry) and a 404 problem for anything else. It has no health routes: probes stay
 * on the API port, where the orchestrators look for them.
 */
export function createMetricsApp(logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsHandler);
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}

export interface MetricsServerOptions {
  /** `METRICS_PORT`; 0 picks a free port (tests, benchmarks). */
  port: number;
  /** `METRICS_HOST`: loopback by default; `0.0.0.0` in containers, where a NetworkPolicy guards it. */
  host: string;
  logger: Logger;
}

/**
 * Serves `/metrics` on its own port, apart from the API, so that the public port never shows
 * them (docs/reliability.md, "Operations"). A port that cannot be bound (already in use) is
 * logged as an error and resolves undefined: the process keeps serving its API without metrics
 * rather than failing over an operational port. Stop the returned server with the API server
 * (an `onShutdown` hook).
 */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<RunningServer | undefined> {
  try {
    const server = await startServer(createMetricsApp(opts.logger), {
      port: opts.port,
      host: opts.host,
      logger: opts.logger,
      lifecycle: { shuttingDown: false },
      shutdownTimeoutMs: 1_000,
    });
    opts.logger.info(`metrics on ${server.url}/metrics`);
    return server;
  } catch (err) {
    opts.logger.error(`metrics port ${opts.host}:${opts.port} unavailable: /metrics is not served`, {
      error: String(err),
    });
    return undefined;
  }
}
