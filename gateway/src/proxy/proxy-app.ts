import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type helmet from 'helmet';
import { baseMiddleware, expressApp, finishApp } from '@fieldhouse/http';
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
  /** Error handlers run before the problem errors (each passes on what it does not answer). */
  errorHandlers?: ErrorRequestHandler[];
}

/**
 * The Express app of one upstream's prefix: `createBaseApp`'s settings and base middleware
 * (`expressApp`, `baseMiddleware` of `@fieldhouse/http`; no health routes) followed by
 * `handlers`, and `finishApp`'s 404 and problem errors. The differences (issue #21): everything
 * before the errors is one Express layer ({@link chain}), so Express matches one layer per
 * proxied request instead of a dozen, and helmet's headers are set when the answer's head is
 * written ({@link securityHeaders}).
 */
export function createProxyApp(opts: ProxyAppOptions): Express {
  const app = expressApp(opts.trustProxy);
  app.use(chain([...baseMiddleware(opts, securityHeaders(opts.helmet)), ...opts.handlers]));
  for (const handler of opts.errorHandlers ?? []) app.use(handler);
  finishApp(app, opts.logger);
  return app;
}
