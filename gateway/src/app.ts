import type { RequestListener } from 'node:http';
import type { RequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import bytes from 'bytes';
import cors from 'cors';
import type { Knex } from 'knex';
import {
  contractRouter,
  createBaseApp,
  finishApp,
  type Lifecycle,
  type ReadinessCheck,
} from '@fieldhouse/http';
import type { Logger } from '@fieldhouse/logger';
import type { GatewayConfig } from './config.ts';
import { consoleRoutes } from './console/console-routes.ts';
import { embedOriginsOf } from './console/embed-origins.ts';
import {
  consoleSettingsOf,
  consoleSettingsRoute,
  isConsoleSettingsPath,
  tileOrigin,
} from './console/console-settings-route.ts';
import { gatewayDocument } from './docs/document.ts';
import { docsRoutes } from './docs/routes.ts';
import { authenticate, refuseDevices } from './identity/authenticate.ts';
import { appUserResolver, appUserScope, takeAppUserKey } from './identity/app-users.ts';
import { openRosaAnswer, openRosaRefusals } from './identity/openrosa-refusals.ts';
import { createAccountLimiters } from './identity/account-limits.ts';
import type { AccountService } from './identity/account-service.ts';
import type { IdentityService } from './identity/identity-service.ts';
import { LoginThrottle } from './identity/login-throttle.ts';
import { isIdentityPath } from './identity/paths.ts';
import { identityRouter } from './identity/router.ts';
import type { SessionsRepo } from './identity/sessions-repo.ts';
import type { TokenCache } from './identity/token-cache.ts';
import { StreamCaps } from './proxy/stream-caps.ts';
import { proxyTo, underPrefix, type Upstream } from './proxy/upstreams.ts';
import { createProxyApp } from './proxy/proxy-app.ts';
import type { SigningKey } from './proxy/signing-key.ts';
import { InternalTokenIssuer } from './proxy/internal-token.ts';
import { jwksRoute } from './proxy/jwks-route.ts';
import { setupCodeRedeemer } from './proxy/setup-code-redeemer.ts';
import { createRateLimiters } from './rate-limit.ts';
import type { RedisClient } from './redis.ts';

export interface GatewayAppDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Knex;
  redis: RedisClient;
  identity: IdentityService;
  sessions: SessionsRepo;
  accounts: AccountService;
  tokenCache: TokenCache;
  signingKey: SigningKey;
  /** Public keys published besides the signing key's (rotation). */
  extraPublicKeys?: Array<SigningKey['publicJwk']>;
  lifecycle?: Lifecycle;
  readiness?: ReadinessCheck[];
}

/** The upstream services and their path prefixes, most specific first. */
function upstreamsOf(c: GatewayConfig): Upstream[] {
  return [
    {
      name: 'polls',
      target: c.POLLS_URL,
      prefix: '/api/polls',
      streams: /^\/api\/polls\/[^/]+\/results\/stream$/,
      snapshotStreams: true,
    },
    { name: 'events', target: c.EVENTS_URL, prefix: '/api/events' },
    { name: 'collection', target: c.COLLECTION_URL, prefix: '/api/v1' },
  ];
}

/** The gateway's HTTP side: its request listener, and what to finish before Redis closes. */
export interface GatewayHttp {
  listener: RequestListener;
  /** Writes the rate-limit counts still pending. */
  close: () => Promise<void>;
}

/** The request-path part of a raw request URL (no query string). */
const pathOf = (url: string | undefined) => {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q === -1 ? u : u.slice(0, q);
};

/**
 * The gateway's request listener. Requests go to one of two Express apps built from the same
 * middleware instances:
 * - a **proxy app** per upstream, for paths under its prefix that the gateway does not serve itself:
 *   request id, helmet, metrics; CORS; per-IP limit; authentication; per-user limit; the proxy
 *   to the service, as one Express layer (proxy/proxy-app.ts); 404 and problem errors;
 * - the **gateway app**, for everything else: the same, plus `/healthz`, `/readyz`, JWKS,
 *   `/docs`, the console's settings and the identity routes (the only ones that parse bodies). `/metrics` is not
 *   served here (404): main.ts serves it on the internal METRICS_PORT.
 *
 * The split keeps the proxied path free of the gateway's own routes, which Express would
 * otherwise try one by one on every proxied request (docs/benchmarks.md, gateway).
 */
export function createGatewayApp(deps: GatewayAppDeps): GatewayHttp {
  const { config: c, logger } = deps;
  const upstreams = upstreamsOf(c);
  // Photos redirected to the object storage, map tiles: their origins join helmet's defaults.
  const tiles = tileOrigin(c.MAP_TILE_URL);
  const contentOrigins = [
    ...c.CONTENT_ORIGINS,
    ...(tiles && !c.CONTENT_ORIGINS.includes(tiles) ? [tiles] : []),
  ];
  const helmetOptions = contentOrigins.length
    ? {
        contentSecurityPolicy: {
          directives: {
            imgSrc: ["'self'", 'data:', ...contentOrigins],
            connectSrc: ["'self'", ...contentOrigins],
          },
        },
      }
    : undefined;

  const allowed = new Set(c.CORS_ORIGINS);
  const corsForAllowed = cors({
    origin: true, // echoes the Origin: only allowed ones reach it (corsHandler below)
    credentials: true,
    allowedHeaders: [
      'Accept',
      'Authorization',
      'Content-Type',
      'X-CSRF-TOKEN',
      'X-XSRF-TOKEN',
      'X-Requested-With',
      'X-Request-Id',
    ],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
  });
  // cors() sets nothing and passes on when the origin is not allowed (or absent, as on most
  // requests): decide that here, and skip its per-request option merging then.
  const corsHandler: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    corsForAllowed(req, res, next);
  };
  const limiters = createRateLimiters(
    deps.redis,
    {
      keyPrefix: c.REDIS_PREFIX,
      windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS,
      perIp: c.RATE_LIMIT_IP,
      perUser: c.RATE_LIMIT_USER,
      loginFailures: c.RATE_LIMIT_LOGIN,
      syncMs: c.RATE_LIMIT_SYNC_MS,
    },
    logger,
  );
  const internalJwt = {
    key: deps.signingKey,
    issuer: c.INTERNAL_JWT_ISSUER,
    ttlSeconds: c.INTERNAL_JWT_TTL_SECONDS,
  };
  /**
   * Per-IP limit, cookies, identity, per-user limit, the app users' scope: every request of
   * either app passes them.
   */
  const caller = [
    limiters.perIp,
    cookieParser(),
    authenticate({
      tokens: deps.identity.tokens,
      devices: deps.identity.devices,
      tokenCache: deps.tokenCache,
      sessions: deps.sessions,
      sessionCookie: c.SESSION_COOKIE,
      logger,
      appUsers: appUserResolver({
        collectionUrl: c.COLLECTION_URL,
        settings: internalJwt,
        timeoutMs: c.UPSTREAM_TIMEOUT_MS,
      }),
    }),
    limiters.perUser,
    appUserScope,
  ];
  const own = createBaseApp({
    logger,
    readiness: deps.readiness ?? [],
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    trustProxy: c.TRUST_PROXY,
    ...(helmetOptions ? { helmet: helmetOptions } : {}),
  }).app;
  own.use(corsHandler);
  const jwks = { keys: [deps.signingKey.publicJwk, ...(deps.extraPublicKeys ?? [])] };
  own.use(contractRouter([jwksRoute], { jwks }, gatewayDocument));
  own.use(contractRouter([consoleSettingsRoute], { consoleSettings: consoleSettingsOf(c) }, gatewayDocument));
  own.use(docsRoutes(upstreams));
  // The console's files are public and immutable: no rate limit or identity lookup per asset.
  if (c.CONSOLE_DIR)
    own.use(
      consoleRoutes(
        c.CONSOLE_DIR,
        // An embed page waits at most 3 s for its poll's origins (then it stays unframeable).
        embedOriginsOf({
          pollsUrl: c.POLLS_URL,
          settings: internalJwt,
          timeoutMs: Math.min(c.UPSTREAM_TIMEOUT_MS, 3_000),
        }),
      ),
    );
  own.use(...caller, refuseDevices);
  own.use(
    identityRouter({
      identity: deps.identity,
      sessions: deps.sessions,
      tokenCache: deps.tokenCache,
      cookies: {
        name: c.SESSION_COOKIE,
        secure: c.cookieSecure,
        lifetimeMinutes: c.SESSION_LIFETIME_MINUTES,
      },
      registrationEnabled: c.REGISTRATION_ENABLED,
      accounts: deps.accounts,
      accountLimiters: createAccountLimiters(
        deps.redis,
        {
          keyPrefix: c.REDIS_PREFIX,
          windowSeconds: c.ACCOUNT_EMAILS_WINDOW_SECONDS,
          perAddress: c.ACCOUNT_EMAILS_PER_ADDRESS,
          perIp: c.ACCOUNT_EMAILS_PER_IP,
        },
        logger,
      ),
      logger,
      bodyLimit: c.BODY_LIMIT,
      loginLimiter: limiters.login,
      redeemSetupCode: setupCodeRedeemer({
        eventsUrl: c.EVENTS_URL,
        settings: internalJwt,
        timeoutMs: c.UPSTREAM_TIMEOUT_MS,
      }),
      loginThrottle: new LoginThrottle(
        deps.redis,
        {
          keyPrefix: c.REDIS_PREFIX,
          failures: c.LOGIN_ACCOUNT_FAILURES,
          windowSeconds: c.LOGIN_ACCOUNT_WINDOW_SECONDS,
          backoffBaseSeconds: c.LOGIN_BACKOFF_BASE_SECONDS,
          backoffMaxSeconds: c.LOGIN_BACKOFF_MAX_SECONDS,
          knownAddressDays: c.LOGIN_KNOWN_ADDRESS_DAYS,
        },
        logger,
      ),
    }),
  );
  finishApp(own, logger);

  const tokens = new InternalTokenIssuer(internalJwt);
  const streamCaps = new StreamCaps({
    perAddress: c.STREAMS_PER_ADDRESS,
    perUser: c.STREAMS_PER_USER,
    total: c.STREAMS_MAX,
    retryAfterSeconds: 10,
  });
  const proxyBodyLimit = bytes.parse(c.PROXY_BODY_LIMIT) ?? 20 * 1024 * 1024;
  const openRosaOptions = { acceptContentLength: proxyBodyLimit };
  // One proxy app per upstream: the listener finds the upstream once, and its metrics label
  // is the upstream's name.
  const proxied = new Map(
    upstreams.map((u) => {
      const app = createProxyApp({
        logger,
        trustProxy: c.TRUST_PROXY,
        ...(helmetOptions ? { helmet: helmetOptions } : {}),
        routeLabel: () => u.name,
        handlers: [
          corsHandler,
          ...caller,
          ...(u.name !== 'events' ? [refuseDevices] : []),
          proxyTo(u, {
            tokens,
            timeoutMs: c.UPSTREAM_TIMEOUT_MS,
            bodyLimit: c.PROXY_BODY_LIMIT,
            streamCaps,
            streamWritesPerSecond: c.STREAM_WRITES_PER_SECOND,
            logger,
            // The service unreachable or silent, told to ODK Collect in OpenRosa words too.
            ...(u.name === 'collection' ? { failureAnswer: openRosaAnswer(openRosaOptions) } : {}),
          }),
        ],
        // Refusals on the OpenRosa routes as an OpenRosaResponse ODK Collect shows its user.
        ...(u.name === 'collection' ? { errorHandlers: [openRosaRefusals(openRosaOptions)] } : {}),
      });
      return [u, app] as const;
    }),
  );

  return {
    listener: (req, res) => {
      // An app user's key leaves the path before anything (the access log) reads it.
      takeAppUserKey(req);
      const path = pathOf(req.url);
      const upstream = upstreams.find((u) => underPrefix(path, u.prefix));
      (upstream && !isIdentityPath(path) && !isConsoleSettingsPath(path) ? proxied.get(upstream)! : own)(
        req,
        res,
      );
    },
    close: limiters.close,
  };
}
