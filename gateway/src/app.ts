import type { Express } from 'express';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import type { Knex } from 'knex';
import { createBaseApp, finishApp, type Lifecycle, type ReadinessCheck } from '@fieldhouse/http';
import type { Logger } from '@fieldhouse/logger';
import type { GatewayConfig } from './config.ts';
import { docsRoutes } from './docs/routes.ts';
import { authenticate } from './identity/authenticate.ts';
import type { IdentityService } from './identity/identity-service.ts';
import { identityRoutes } from './identity/routes.ts';
import type { SessionsRepo } from './identity/sessions-repo.ts';
import type { TokenCache } from './identity/token-cache.ts';
import { proxyTo, underPrefix, type Upstream } from './proxy/upstreams.ts';
import type { SigningKey } from './proxy/signing-key.ts';
import { InternalTokenIssuer } from './proxy/internal-token.ts';
import { createRateLimiters } from './rate-limit.ts';
import type { RedisClient } from './redis.ts';

export interface GatewayAppDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Knex;
  redis: RedisClient;
  identity: IdentityService;
  sessions: SessionsRepo;
  tokenCache: TokenCache;
  signingKey: SigningKey;
  /** Public keys published besides the signing key's (rotation). */
  extraPublicKeys?: Array<SigningKey['publicJwk']>;
  lifecycle?: Lifecycle;
  readiness?: ReadinessCheck[];
}

/** The upstream services and their path prefixes, most specific first. */
export function upstreamsOf(c: GatewayConfig): Upstream[] {
  return [
    { name: 'polls', target: c.POLLS_URL, prefix: '/api/polls' },
    { name: 'events', target: c.EVENTS_URL, prefix: '/api/events' },
    { name: 'collection', target: c.COLLECTION_URL, prefix: '/api/v1' },
  ];
}

/**
 * The gateway's Express app, in order: request id, helmet, metrics and health (base app);
 * CORS from the allow-list; JWKS and docs; per-IP limit; authentication; per-user limit;
 * identity routes (the only ones that parse bodies); proxies to the services; 404 and
 * problem errors.
 */
export function createGatewayApp(deps: GatewayAppDeps): Express {
  const { config: c, logger } = deps;
  const upstreams = upstreamsOf(c);
  const { app } = createBaseApp({
    logger,
    readiness: deps.readiness ?? [],
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    trustProxy: c.TRUST_PROXY,
    routeLabel: (path) => upstreams.find((u) => underPrefix(path.split('?')[0]!, u.prefix))?.name,
  });

  const allowed = new Set(c.CORS_ORIGINS);
  app.use(
    cors({
      origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
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
    }),
  );

  const jwks = { keys: [deps.signingKey.publicJwk, ...(deps.extraPublicKeys ?? [])] };
  app.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(jwks);
  });
  app.use(docsRoutes(upstreams));

  const limiters = createRateLimiters(
    deps.redis,
    {
      keyPrefix: c.REDIS_PREFIX,
      windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS,
      perIp: c.RATE_LIMIT_IP,
      perUser: c.RATE_LIMIT_USER,
      loginFailures: c.RATE_LIMIT_LOGIN,
    },
    logger,
  );
  app.use(limiters.perIp);
  app.use(cookieParser());
  app.use(
    authenticate({
      tokens: deps.identity.tokens,
      tokenCache: deps.tokenCache,
      sessions: deps.sessions,
      sessionCookie: c.SESSION_COOKIE,
      logger,
    }),
  );
  app.use(limiters.perUser);
  app.use(
    identityRoutes({
      identity: deps.identity,
      sessions: deps.sessions,
      tokenCache: deps.tokenCache,
      cookies: {
        name: c.SESSION_COOKIE,
        secure: c.cookieSecure,
        lifetimeMinutes: c.SESSION_LIFETIME_MINUTES,
      },
      registrationEnabled: c.REGISTRATION_ENABLED,
      bodyLimit: c.BODY_LIMIT,
      loginLimiter: limiters.login,
    }),
  );

  const tokens = new InternalTokenIssuer({
    key: deps.signingKey,
    issuer: c.INTERNAL_JWT_ISSUER,
    ttlSeconds: c.INTERNAL_JWT_TTL_SECONDS,
  });
  for (const u of upstreams) {
    const proxy = proxyTo(u, {
      tokens,
      timeoutMs: c.UPSTREAM_TIMEOUT_MS,
      bodyLimit: c.PROXY_BODY_LIMIT,
      logger,
    });
    app.use((req, res, next) => (underPrefix(req.path, u.prefix) ? proxy(req, res, next) : next()));
  }
  return finishApp(app, logger);
}
