import type { Request, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, type AugmentedRequest, type Options, type ClientRateLimitInfo } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '@fieldhouse/logger';
import { ProblemError } from '@fieldhouse/problem';
import type { RedisClient } from './redis.ts';

/**
 * rate-limit-redis loads its Lua scripts once; if Redis was down at that moment the stored
 * script promise stays rejected forever. This store reloads them after a failure, so limits
 * come back by themselves when Redis does.
 */
class ReloadingRedisStore extends RedisStore {
  override async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await super.increment(key);
    } catch (err) {
      this.reloadScripts();
      throw err;
    }
  }

  override async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      return await super.get(key);
    } catch (err) {
      this.reloadScripts();
      throw err;
    }
  }

  private reloadScripts(): void {
    this.incrementScriptSha = this.loadIncrementScript();
    this.getScriptSha = this.loadGetScript();
    // Awaited on the next call; swallow here so a failed reload is not an unhandled rejection.
    this.incrementScriptSha.catch(() => undefined);
    this.getScriptSha.catch(() => undefined);
  }
}

export interface RateLimitSettings {
  windowSeconds: number;
  perIp: number;
  perUser: number;
  loginFailures: number;
}

/** Key of the login limiter: the client address (IPv6 by /56) and the e-mail tried. */
const loginKey = (req: Request) =>
  `${ipKeyGenerator(req.ip ?? 'unknown')}:${String((req.body as { email?: unknown })?.email ?? '').trim().toLowerCase()}`;

/**
 * The gateway's limiters, sharing one Redis store across replicas (express-rate-limit):
 * - `perIp`: every request, before authentication, keyed by client IP;
 * - `perUser`: signed-in users, after authentication, keyed by user id;
 * - `login`: failed logins per (IP, e-mail); successful ones are not counted.
 * Over a limit: 429 problem with `Retry-After` and the standard `RateLimit` headers (draft 8).
 * If Redis fails the limiters let requests through (fail open) and log a warning.
 */
export function createRateLimiters(redis: RedisClient, s: RateLimitSettings, logger: Logger) {
  let lastWarning = 0;
  const make = (name: string, limit: number, extra: Partial<Options>): RequestHandler =>
    rateLimit({
      windowMs: s.windowSeconds * 1000,
      limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      passOnStoreError: true,
      store: new ReloadingRedisStore({
        prefix: `rl:${name}:`,
        sendCommand: (...args: string[]) => {
          const sent = redis.sendCommand(args);
          sent.catch((err: unknown) => {
            if (Date.now() - lastWarning > 10_000) {
              lastWarning = Date.now();
              logger.warn('rate limit store unavailable: limits are not enforced', { error: String(err) });
            }
          });
          return sent as Promise<never>;
        },
      }),
      handler: (req, res, next) => {
        const reset = (req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? Date.now() + s.windowSeconds * 1000;
        const retryAfter = Math.max(1, Math.ceil((reset - Date.now()) / 1000));
        next(
          new ProblemError(429, `Too many requests. Retry after ${retryAfter} seconds.`, {
            code: 'rate_limited',
            headers: { 'Retry-After': String(retryAfter) },
          }),
        );
      },
      ...extra,
    });

  return {
    perIp: make('ip', s.perIp, {}),
    perUser: make('user', s.perUser, {
      skip: (req) => !req.identity?.user,
      keyGenerator: (req) => `u${req.identity.user!.id}`,
    }),
    login: make('login', s.loginFailures, { keyGenerator: loginKey, skipSuccessfulRequests: true }),
  };
}
