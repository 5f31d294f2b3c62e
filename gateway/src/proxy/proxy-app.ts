import express, { type Express, type RequestHandler } from 'express';
import type helmet from 'helmet';
import { accessLog, finishApp, metricsMiddleware, requestId, storableQuery } from '@fieldhouse/http';
import type { Logger } from '@fieldhouse/logger';
import { chain } from './chain.ts';
import { securityHeaders } from './security-headers.ts';

export interface ProxyAppOptions {
  logger: Logger;
  trustProxy: boolean | number | string;
  helmet?: Parameters<typeof helmet>[0];
  /** Metrics route label of every request (the upstream's name). */
  routeLabel: () => string;
  /** What runs after the base middleware: CORS, limits, identity, the proxy. */
  handlers: RequestHandler[];
}

/**
 * The Express app of one upstream's prefix: the same middleware, in the same order, as
 * `createBaseApp` of `@fieldhouse/http` (request id, helmet, access log, request metrics, the
 * query check; no health routes) followed by `handlers`, and `finishApp`'s 404 and problem
 * errors. The differences (issue #21): everything before the errors is one Express layer
 * ({@link chain}), so Express matches one layer per proxied request instead of a dozen, and
 * helmet's headers are set when the answer's head is written ({@link securityHeaders}).
 * Keep it in step with `createBaseApp` (gateway/test/proxied-answers.test.ts compares the
 * headers of the gateway's own routes with these).
 */
export function createProxyApp(opts: ProxyAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy);
  app.set('query parser', 'extended');
  app.use(
    chain([
      requestId,
      securityHeaders(opts.helmet),
      accessLog(opts.logger),
      metricsMiddleware(opts.routeLabel),
      storableQuery,
      ...opts.handlers,
    ]),
  );
  finishApp(app, opts.logger);
  return app;
}
