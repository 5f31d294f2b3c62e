import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger } from '@fieldhouse/logger';
import { assertStorableText, errorMiddleware, notFound, notFoundHandler } from '@fieldhouse/problem';
import { requestId } from './request-id.ts';
import { metricsMiddleware } from './metrics.ts';
import { healthRouter, type ReadinessCheck } from './health.ts';

/** Shared between the app (`/readyz` answers 503 while stopping) and the server that stops it. */
export interface Lifecycle {
  shuttingDown: boolean;
}

export interface BaseAppOptions {
  logger: Logger;
  /** Dependencies checked by `/readyz`. */
  readiness?: ReadinessCheck[];
  lifecycle?: Lifecycle;
  /** Express `trust proxy` setting (how many proxies sit in front). Default: loopback only. */
  trustProxy?: boolean | number | string;
  /** Metrics route label for requests no Express route matched (e.g. proxied ones). */
  routeLabel?: (path: string) => string | undefined;
  /** Helmet options; the gateway relaxes the CSP for its `/docs` UI. */
  helmet?: Parameters<typeof helmet>[0];
}

/**
 * Refuses a query string holding a value no database can store as text (`?search=%00`):
 * 422 naming the parameter as `query.<name>`; a path holding an escaped NUL (`/api/polls/a%00b`)
 * is a 404 problem. Runs on every request of every app, but parses
 * the query (Express parses it again on each read of `req.query`) only when it holds `%00`:
 * the query parser keeps any undecodable sequence (`%ED%A0%80`) as the raw, well-formed text,
 * so an escaped NUL is the only way a query value becomes unstorable.
 */
const storableQuery: RequestHandler = (req, _res, next) => {
  if (!req.url.includes('%00')) return next();
  // A path segment holding NUL names nothing any store can hold (PostgreSQL, and FerretDB on
  // it, cannot even compare with it): no such resource, as for any unknown id.
  const pathEnd = req.url.indexOf('?');
  if ((pathEnd < 0 ? req.url : req.url.slice(0, pathEnd)).includes('%00'))
    return next(notFound('No resource has this address: it contains the NUL character (%00).'));
  assertStorableText(req.query, 'query');
  next();
};

/**
 * Whether a JSON body may hold an unstorable string: in UTF-8 JSON, a NUL or an unpaired
 * surrogate can only come as a `\u0000` or `\uD800`-`\uDFFF` escape (a raw control character
 * is invalid JSON, and bytes that are not UTF-8 decode to U+FFFD); other encodings are checked
 * whole. Matching escapes of valid surrogate pairs too only costs a walk.
 */
const MAY_BE_UNSTORABLE = /\\u(0000|d[89a-f])/i;
const suspectBodies = new WeakSet<object>();

/** Logs one `http` line per request: method, path, status, duration in ms. */
function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // Formatting a line costs even when the level drops it: skip the work entirely.
    if (!logger.isLevelEnabled('http')) return next();
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      logger.http(`${req.method} ${req.originalUrl} ${res.statusCode}`, {
        method: req.method,
        path: req.originalUrl,
        status: res.statusCode,
        durationMs: Math.round(ms * 100) / 100,
      });
    });
    next();
  };
}

/**
 * An Express app with the settings every process uses: no `X-Powered-By`, Express's
 * `trust proxy` (default loopback only), the extended query parser.
 */
export function expressApp(trustProxy: boolean | number | string = 'loopback'): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.set('query parser', 'extended');
  return app;
}

/**
 * What every request of every app runs first, in order: its request id, `security` (helmet
 * with `opts.helmet` in {@link createBaseApp}; the gateway's proxied path replays helmet's
 * headers more cheaply), the access log, the request metrics, the query check.
 */
export function baseMiddleware(
  opts: Pick<BaseAppOptions, 'logger' | 'routeLabel'>,
  security: RequestHandler,
): RequestHandler[] {
  return [requestId, security, accessLog(opts.logger), metricsMiddleware(opts.routeLabel), storableQuery];
}

/**
 * The Express app every process starts from: request ids, helmet, access log, request metrics
 * (served on the metrics port, not here), `/healthz`, `/readyz`. It parses no body: a service adds `express.json()`
 * itself, the gateway only on the routes it serves (proxied bodies stream through untouched).
 * Call {@link finishApp} after the routes.
 */
export function createBaseApp(opts: BaseAppOptions): { app: Express; lifecycle: Lifecycle } {
  const lifecycle = opts.lifecycle ?? { shuttingDown: false };
  const app = expressApp(opts.trustProxy);
  app.use(...baseMiddleware(opts, helmet(opts.helmet)));
  app.use(healthRouter(opts.readiness ?? [], () => lifecycle.shuttingDown));
  return { app, lifecycle };
}

/** Adds the 404 problem handler and the problem error middleware; call once, after all routes. */
export function finishApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}

/**
 * `express.json()` with the configured size limit; bad JSON and oversize bodies become 400/413
 * problems, and a body holding a string no database can store as text (a NUL character or an
 * unpaired surrogate, anywhere, keys included) a 422 naming the field (problem's `assertStorableText`).
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    // Looks at the raw bytes once, so that bodies without a suspicious escape are not walked.
    verify: (req, _res, buf, encoding) => {
      if (encoding !== 'utf-8' || MAY_BE_UNSTORABLE.test(buf.toString('latin1'))) suspectBodies.add(req);
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        if (suspectBodies.has(req)) assertStorableText(req.body);
      } catch (e) {
        return next(e);
      }
      next();
    });
}
