import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, ipKeyGenerator, type AugmentedRequest } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '@fieldhouse/logger';
import { tooManyRequests } from '@fieldhouse/problem';
import { FailOpenStore } from '../fail-open-store.ts';
import type { RedisClient } from '../redis.ts';
import { normalizeEmail } from './users-repo.ts';

export interface AccountLimitSettings {
  /** Prefix of the counters' Redis keys (`<prefix>rl:<limiter>:<key>`). */
  keyPrefix: string;
  /** Window of the account e-mail limits (s). */
  windowSeconds: number;
  /** Password reset requests per e-mail address (known or not) per window; also verification e-mails per user. */
  perAddress: number;
  /** Password reset requests per client address per window. */
  perIp: number;
}

/** The limiters of the routes that send account e-mails (docs/identity.md, "Accounts"). */
export interface AccountLimiters {
  /** `POST /api/v1/password/forgot`, per client address (IPv6 by /56). */
  resetPerIp: RequestHandler;
  /** `POST /api/v1/password/forgot`, per e-mail typed (counted whether an account has it or not). */
  resetPerEmail: RequestHandler;
  /** `POST /api/v1/me/email-verification`, per signed-in user. */
  verificationPerUser: RequestHandler;
}

/**
 * express-rate-limit limiters whose counters are in Redis, exact across gateway replicas
 * (rate-limit-redis, as the login limiter), failing open while Redis is down. Every request
 * counts, answered or not; over the limit: 429 `rate_limited` with `Retry-After`.
 */
export function createAccountLimiters(
  redis: RedisClient,
  s: AccountLimitSettings,
  logger: Logger,
): AccountLimiters {
  let lastWarning = 0;
  const onFailure = (err: unknown) => {
    if (Date.now() - lastWarning > 10_000) {
      lastWarning = Date.now();
      logger.warn('rate limit store unavailable: account e-mail limits are not enforced', {
        error: String(err),
      });
    }
  };
  const windowMs = s.windowSeconds * 1000;
  const handler = (req: Request, _res: Response, next: (err: unknown) => void) => {
    const reset = (req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? Date.now() + windowMs;
    const retryAfter = Math.max(1, Math.ceil((reset - Date.now()) / 1000));
    next(tooManyRequests(`Too many requests. Retry after ${retryAfter} seconds.`, retryAfter));
  };
  const limiter = (name: string, limit: number, key: (req: Request) => string) =>
    rateLimit({
      identifier: name,
      windowMs,
      limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      passOnStoreError: true,
      store: new FailOpenStore({
        create: () =>
          new RedisStore({
            prefix: `${s.keyPrefix}rl:${name}:`,
            sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<never>,
          }),
        onFailure,
      }),
      handler,
      keyGenerator: key,
    });
  return {
    resetPerIp: limiter('reset-ip', s.perIp, (req) => String(ipKeyGenerator(req.ip ?? 'unknown', 56))),
    resetPerEmail: limiter('reset-email', s.perAddress, (req) =>
      normalizeEmail(String((req.body as { email?: unknown } | undefined)?.email ?? '')),
    ),
    verificationPerUser: limiter('verify-user', s.perAddress, (req) => `u${req.identity.user?.id ?? 0}`),
  };
}
