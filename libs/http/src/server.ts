import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@fieldhouse/logger';
import type { Lifecycle } from './app.ts';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';

export interface ServerOptions {
  port: number;
  host?: string;
  logger: Logger;
  lifecycle: Lifecycle;
  /** Longest wait for in-flight requests after a stop begins (ms). */
  shutdownTimeoutMs?: number;
  /** Closed in order once no request is in flight (pools, broker connections...). */
  onShutdown?: Array<() => Promise<unknown>>;
  /** Stop on SIGTERM/SIGINT (main.ts sets it; tests call `stop()` themselves). */
  handleSignals?: boolean;
  /**
   * The internal metrics port (`METRICS_PORT`, `METRICS_HOST`): started after the API listens,
   * stopped after the shutdown hooks ({@link startMetricsServer}: a port that cannot be bound
   * is logged, not fatal).
   */
  metrics?: { port: number; host: string };
  /**
   * Answer a client that half-closes its connection after a complete request (the gateway sets
   * it; see {@link answerHalfClosedClients}). Off by default: a server whose long-lived answers
   * (event streams) learn that their client left from the end of its side of the connection
   * must end them itself once this is on.
   */
  answerHalfClosed?: boolean;
}

export interface RunningServer {
  server: Server;
  port: number;
  /** `http://host:port`, with 127.0.0.1 for wildcard hosts. */
  url: string;
  /** Graceful stop: refuse new connections, let in-flight requests finish, then run the shutdown hooks. */
  stop: () => Promise<void>;
  /** The metrics server, when `metrics` was given and its port could be bound. */
  metrics: MetricsServer | undefined;
}

/**
 * Lets a client that half-closes its connection (shuts its write side down after a complete
 * request) still get the answer. Node's HTTP server ends the socket as soon as the client's FIN
 * arrives unless `httpAllowHalfOpen` is set (lib/_http_server.js, `socketOnEnd`): only answers
 * written in the tick of the request (`/healthz`) got out, and every answer that waits on a
 * query or an upstream (the gateway's whole proxied path) was lost. Set, the server marks the
 * answer in flight as the connection's last, closes the socket once it is sent (no further
 * request can come), and ends an idle half-closed socket at once: RFC 9112 9.6 describes
 * closing as staged, and a half-close is the client's half of it, not an abandoned request.
 * The price: the end of the client's side no longer ends an answer in flight, so an event
 * stream to a client that left stays open until a write fails, unless its handler ends it when
 * the socket's `end` comes (the gateway's proxy does, gateway/src/proxy/upstreams.ts).
 *
 * `httpAllowHalfOpen` is a property of every `http.Server` (false by default) that Node's
 * documentation and @types/node do not list; gateway/test/connections.test.ts fails if a Node
 * release stops honouring it.
 */
function answerHalfClosedClients(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}

/**
 * Listens with `app` (an Express app or any Node request listener) and wires graceful shutdown: on stop, `/readyz` turns 503, the listener
 * closes, idle keep-alive sockets close, in-flight requests finish (or are cut after
 * `shutdownTimeoutMs`), then `onShutdown` hooks run.
 */
export async function startServer(app: RequestListener, opts: ServerOptions): Promise<RunningServer> {
  const server = createServer(app).listen(opts.port, opts.host ?? '0.0.0.0');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Longer than any proxy's idle timeout, so the gateway never reuses a socket we are closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  if (opts.answerHalfClosed) answerHalfClosedClients(server);
  const { port } = server.address() as AddressInfo;
  const host = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  const metrics = opts.metrics
    ? await startMetricsServer({ ...opts.metrics, logger: opts.logger })
    : undefined;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      opts.lifecycle.shuttingDown = true;
      opts.logger.info('shutting down: refusing new connections, finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        opts.logger.warn('shutdown timeout reached: closing remaining connections');
        server.closeAllConnections();
      }, opts.shutdownTimeoutMs ?? 10_000);
      timer.unref();
      await closed;
      clearTimeout(timer);
      for (const hook of opts.onShutdown ?? []) {
        try {
          await hook();
        } catch (err) {
          opts.logger.error('shutdown hook failed', { err });
        }
      }
      await metrics?.stop();
      opts.logger.info('stopped');
    })());

  if (opts.handleSignals) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        void stop().then(() => process.exit(0));
      });
    }
  }
  opts.logger.info(`listening on http://${host}:${port}`);
  return { server, port, url: `http://${host}:${port}`, stop, metrics };
}
