import type { RequestHandler } from 'express';
import client from 'prom-client';

/** One Prometheus registry per process, with Node's default metrics. */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duration of HTTP requests in seconds, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * A counter in the process registry (shown on `/metrics`), for a service's own events.
 * `name` follows Prometheus conventions (`<service>_<what>_total`).
 */
export function defineCounter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new client.Counter<L>({ name, help, labelNames, registers: [registry] });
}

/**
 * A gauge in the process registry whose value is read when metrics are collected: `read()`
 * gives the current value (several instances of one component in a process add up: pass the
 * sum). Defining the same name twice returns the first gauge with the new reader added.
 */
export function defineGauge(name: string, help: string, read: () => number): void {
  const readers = (gaugeReaders.get(name) ?? []).concat(read);
  gaugeReaders.set(name, readers);
  if (readers.length > 1) return;
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(gaugeReaders.get(name)!.reduce((n, r) => n + r(), 0));
    },
  });
}
const gaugeReaders = new Map<string, Array<() => number>>();

/**
 * Observes each request's duration. The route label is the matched route pattern (never the
 * raw path, so ids do not explode the label set), or `routeLabel(req)` when given (the gateway
 * labels proxied requests by upstream).
 */
export function metricsMiddleware(routeLabel?: (path: string) => string | undefined): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.once('finish', () => {
      const route =
        (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : undefined) ??
        routeLabel?.(req.originalUrl) ??
        'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/** `GET /metrics` in Prometheus text format. */
export const metricsHandler: RequestHandler = async (_req, res) => {
  res.type(registry.contentType).send(await registry.metrics());
};
