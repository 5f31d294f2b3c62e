import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { AugmentedRequest, ClientRateLimitInfo, Options } from 'express-rate-limit';
import type { Logger } from '@fieldhouse/logger';
import type { WriteBehindRedisStore } from './rate-limit-store.ts';

export interface CountEveryRequestOptions {
  /** The policy's name in the `RateLimit` headers (express-rate-limit's `identifier`). */
  identifier: string;
  limit: number;
  windowMs: number;
  store: WriteBehindRedisStore;
  /** The client's key, or undefined to let the request pass uncounted (`skip`). */
  key: (req: Request) => string | undefined;
  /** Called over the limit (after `Retry-After` is set), as express-rate-limit's `handler`. */
  handler: (req: Request, res: Response, next: (err: unknown) => void) => void;
  logger: Logger;
}

/**
 * The per-IP and per-user limiters: what express-rate-limit 8 does with this module's options
 * (`standardHeaders: 'draft-8'`, `legacyHeaders: false`, `passOnStoreError: true`, a fixed
 * identifier, no skipping of failed or successful requests), the same headers and the same
 * `req.rateLimit`, written for the path every request takes (issue #21, docs/benchmarks.md):
 * - no promise, `await` or `debug` call when the store answers at once (write-behind counts do);
 * - the draft-8 partition key (the first 12 hex digits of the key's SHA-256, in base64) is
 *   computed once per key, not on every request;
 * - express-rate-limit's configuration checks (which only ever warn) are left out.
 * gateway/test/proxied-answers.test.ts pins the headers and the 429.
 */
export function countEveryRequest(o: CountEveryRequestOptions): RequestHandler {
  const windowSeconds = Math.ceil(o.windowMs / 1000);
  const name = `"${o.identifier}"`;
  const policy = `${name}; q=${o.limit}; w=${windowSeconds}; pk=:`;
  const partitionKeys = new Map<string, string>();
  const partitionKey = (key: string) => {
    let pk = partitionKeys.get(key);
    if (pk === undefined) {
      pk = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
      if (partitionKeys.size >= 10_000) partitionKeys.clear();
      partitionKeys.set(key, pk);
    }
    return pk;
  };
  o.store.init({ windowMs: o.windowMs } as Options);

  /** What express-rate-limit does once the store answered: `req.rateLimit`, headers, 429. */
  const counted = (
    req: Request,
    res: Response,
    next: (err?: unknown) => void,
    key: string,
    hits: ClientRateLimitInfo,
  ) => {
    const info = {
      limit: o.limit,
      used: hits.totalHits,
      remaining: Math.max(o.limit - hits.totalHits, 0),
      resetTime: hits.resetTime,
      key,
    };
    Object.defineProperty(info, 'current', { configurable: false, enumerable: false, value: hits.totalHits });
    (req as AugmentedRequest).rateLimit = info as AugmentedRequest['rateLimit'];
    if (!res.headersSent) {
      const reset = resetSeconds(o.windowMs, info.resetTime);
      append(res, 'RateLimit', `${name}; r=${info.remaining}; t=${reset}`);
      append(res, 'RateLimit-Policy', `${policy}${partitionKey(key)}:`);
    }
    if (hits.totalHits > o.limit) {
      if (!res.headersSent) res.setHeader('Retry-After', String(resetSeconds(o.windowMs, info.resetTime)));
      return o.handler(req, res, next);
    }
    next();
  };
  /** passOnStoreError: the request passes uncounted. */
  const failed = (next: () => void, err: unknown) => {
    o.logger.error('express-rate-limit: error from store, allowing request without rate-limiting.', {
      error: String(err),
    });
    next();
  };

  return (req, res, next) => {
    const key = o.key(req);
    if (key === undefined) return next();
    let hits: ClientRateLimitInfo | Promise<ClientRateLimitInfo>;
    try {
      hits = o.store.increment(key);
    } catch (err) {
      return failed(next, err);
    }
    // The write-behind store answers at once: no promise, no closure on this path.
    if (!(hits instanceof Promise)) return counted(req, res, next, key, hits);
    hits
      .then(
        (h) => counted(req, res, next, key, h),
        (err: unknown) => failed(next, err),
      )
      .catch(next);
  };
}

/** express-rate-limit's seconds to the window's end (`t=` and `Retry-After`). */
const resetSeconds = (windowMs: number, resetTime: Date | undefined) =>
  resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : Math.ceil(windowMs / 1000);

/** Express's `res.append`: a second value of a header makes it a list (two header lines). */
function append(res: Response, field: string, value: string): void {
  const prev = res.getHeader(field);
  res.setHeader(
    field,
    prev ? (Array.isArray(prev) ? [...prev.map(String), value] : [String(prev), value]) : value,
  );
}
