import express, { type Express } from 'express';
import type { Logger } from '@fieldhouse/logger';
import { errorMiddleware, notFoundHandler } from '@fieldhouse/problem';
import { metricsHandler } from './metrics.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The app of a process's internal metrics port: `GET /metrics` (Prometheus text format, the
 * process registry) and a 404 problem for anything else. It has no health routes: probes stay
 * on the API port, where the orchestrators look for them.
 */
function createMetricsApp(logger: Logger): Express {
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

/** A running metrics server: its URL and how to stop it. */
export interface MetricsServer {
  /** `http://host:port`. */
  url: string;
  stop: () => Promise<void>;
}

/**
 * Serves `/metrics` on its own port, apart from the API, so that the public port never shows
 * them (docs/reliability.md, "Operations"). A port that cannot be bound (already in use) is
 * logged as an error and resolves undefined: the process keeps serving its API without metrics
 * rather than failing over an operational port. `startServer` starts it with the API server
 * (its `metrics` option) and stops it with it.
 */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer | undefined> {
  const server = createServer(createMetricsApp(opts.logger));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, resolve);
    });
  } catch (err) {
    opts.logger.error(`metrics port ${opts.host}:${opts.port} unavailable: /metrics is not served`, {
      error: String(err),
    });
    return undefined;
  }
  const { port } = server.address() as AddressInfo;
  const host = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  const url = `http://${host}:${port}`;
  opts.logger.info(`metrics on ${url}/metrics`);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
