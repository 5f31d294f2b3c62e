import type { Request, Response } from 'express';
import { rateLimit, ipKeyGenerator, type AugmentedRequest } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '@fieldhouse/logger';
import { tooManyRequests } from '@fieldhouse/problem';
import type { RedisClient } from './redis.ts';
import { FailOpenStore } from './fail-open-store.ts';
import { WriteBehindRedisStore } from './rate-limit-store.ts';
import { countEveryRequest } from './request-limiter.ts';

export interface RateLimitSettings {
  /** Prefix of the counters' Redis keys (`<prefix>rl:<limiter>:<key>`). */
  keyPrefix: string;
  windowSeconds: number;
  perIp: number;
  perUser: number;
  loginFailures: number;
  /** Write-behind interval of the per-IP and per-user counters, ms (0: exact, one round trip a hit). */
  syncMs: number;
}

/** Key of the login limiter: the client address (IPv6 by /56) and the e-mail tried. */
const loginKey = (req: Request) =>
  `${ipKeyGenerator(req.ip ?? 'unknown')}:${String((req.body as { email?: unknown })?.email ?? '')
    .trim()
    .toLowerCase()}`;

/**
 * The gateway's limiters (express-rate-limit), their counters in Redis shared by every replica:
 * - `perIp`: every request, before authentication, keyed by client IP;
 * - `perUser`: signed-in users (keyed by user id), scanner devices (by device id) and app users
 *   (by app user id: docs/identity.md, "App users"), after authentication;
 * - `login`: failed logins per (IP, e-mail); successful ones are not counted.
 * `perIp` and `perUser` run on every request: their counters are written behind every
 * `syncMs` ({@link WriteBehindRedisStore}), so a request costs no Redis round trip; while Redis
 * is down they hold per replica. `login` is exact across replicas (one round trip per failed
 * login, rate-limit-redis) and fails open while Redis is down ({@link FailOpenStore}).
 * Over a limit: 429 problem with `Retry-After` and the standard `RateLimit` headers (draft 8).
 * `perIp` and `perUser` are {@link countEveryRequest}, the same behaviour as express-rate-limit's
 * with less work per request; `login` is express-rate-limit itself.
 * `close()` writes the pending counts (call it before closing Redis).
 */
export function createRateLimiters(redis: RedisClient, s: RateLimitSettings, logger: Logger) {
  let lastWarning = 0;
  const warn = (err: unknown) => {
    if (Date.now() - lastWarning > 10_000) {
      lastWarning = Date.now();
      logger.warn('rate limit store unavailable: login limits are not enforced, others per replica', {
        error: String(err),
      });
    }
  };
  const sendCommand = (args: string[]) => redis.sendCommand(args);
  const windowMs = s.windowSeconds * 1000;
  const handler = (req: Request, _res: Response, next: (err: unknown) => void) => {
    const reset = (req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? Date.now() + windowMs;
    const retryAfter = Math.max(1, Math.ceil((reset - Date.now()) / 1000));
    next(tooManyRequests(`Too many requests. Retry after ${retryAfter} seconds.`, retryAfter));
  };
  const writeBehind = (name: string) =>
    new WriteBehindRedisStore({
      sendCommand,
      prefix: `${s.keyPrefix}rl:${name}:`,
      syncMs: s.syncMs,
      onFailure: warn,
    });
  const ipStore = writeBehind('ip');
  const userStore = writeBehind('user');
  // Exact across replicas (rate-limit-redis), failing open while Redis is down (FailOpenStore).
  const loginStore = new FailOpenStore({
    create: () =>
      new RedisStore({
        prefix: `${s.keyPrefix}rl:login:`,
        sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<never>,
      }),
    onFailure: warn,
  });

  return {
    perIp: countEveryRequest({
      identifier: 'ip',
      limit: s.perIp,
      windowMs,
      store: ipStore,
      // As express-rate-limit's default key (an IPv6 client by its /56 network).
      key: (req) => String(ipKeyGenerator(req.ip as string, 56)),
      handler,
      logger,
    }),
    perUser: countEveryRequest({
      identifier: 'user',
      limit: s.perUser,
      windowMs,
      store: userStore,
      key: (req) =>
        req.identity?.user
          ? `u${req.identity.user.id}`
          : req.identity?.device
            ? `d${req.identity.device.id}`
            : req.identity?.appUser
              ? `a${req.identity.appUser.id}`
              : undefined,
      handler,
      logger,
    }),
    login: rateLimit({
      identifier: 'login',
      windowMs,
      limit: s.loginFailures,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      passOnStoreError: true,
      store: loginStore,
      handler,
      keyGenerator: loginKey,
      skipSuccessfulRequests: true,
    }),
    close: async () => {
      await Promise.all([ipStore.shutdown(), userStore.shutdown()]);
    },
  };
}
