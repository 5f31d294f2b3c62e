import { Router, type Express, type RequestHandler } from 'express';
import type { Logger } from '@fieldhouse/logger';
import { createBaseApp, finishApp, jsonBody, type Lifecycle } from './app.ts';
import type { ReadinessCheck } from './health.ts';
import { StoreWatch, type StoreWatchOptions, type WatchedStore } from './store-watch.ts';

export interface ServiceAppOptions {
  logger: Logger;
  readiness: ReadinessCheck[];
  lifecycle?: Lifecycle;
  bodyLimit: string;
  /** The service's path prefix behind the gateway (`/api/v1`, `/api/polls`, `/api/events`). */
  prefix: string;
  /** Verifies the gateway's JWT (internal-auth's `requireGateway`); runs on every prefixed route. */
  authenticate: RequestHandler;
  /** Served unauthenticated at `/openapi.json` (the gateway shows it under `/docs`). */
  openApi: object;
  /** Unauthenticated routes served beside `/openapi.json` (a service's `/asyncapi.json`). */
  publicRoutes?: Router;
  /** The service's routes, mounted after authentication and body parsing (full paths). */
  routes: Router;
  /**
   * Stores watched by a {@link StoreWatch}: while one does not answer, every request under
   * `prefix` gets `503 store_unavailable` with `Retry-After` at once. None: no watch (tests).
   */
  stores?: WatchedStore[];
  /** Timing of the watch (defaults: a probe every 200 ms, 600 ms to answer, one failure trips). */
  storeWatch?: Omit<StoreWatchOptions, 'stores' | 'logger'>;
}

/**
 * The Express app of a service behind the gateway: the base app (request ids, helmet, metrics,
 * health), `/openapi.json` and the `publicRoutes`, then under `prefix` the store watch's 503
 * while a store hangs (when `stores` are given), the gateway JWT check, a JSON body parser with
 * the configured limit, and the routes; 404 and problem errors last.
 */
export function createServiceApp(opts: ServiceAppOptions): {
  app: Express;
  lifecycle: Lifecycle;
  /** The running store watch (stop it on shutdown), when `stores` were given. */
  storeWatch: StoreWatch | undefined;
} {
  const { app, lifecycle } = createBaseApp({
    logger: opts.logger,
    readiness: opts.readiness,
    ...(opts.lifecycle ? { lifecycle: opts.lifecycle } : {}),
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(opts.openApi);
  });
  if (opts.publicRoutes) app.use(opts.publicRoutes);
  const watch = opts.stores?.length
    ? new StoreWatch({ stores: opts.stores, logger: opts.logger, ...opts.storeWatch }).start()
    : undefined;
  const api = Router();
  if (watch) api.use(watch.middleware());
  api.use(opts.authenticate, jsonBody(opts.bodyLimit));
  api.use(opts.routes);
  app.use((req, res, next) =>
    req.path === opts.prefix || req.path.startsWith(`${opts.prefix}/`) ? api(req, res, next) : next(),
  );
  return { app: finishApp(app, opts.logger), lifecycle, storeWatch: watch };
}
