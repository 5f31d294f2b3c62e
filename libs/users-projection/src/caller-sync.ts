import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type {} from '@fieldhouse/internal-auth';
import { unauthenticated } from '@fieldhouse/problem';
import type { UsersProjection } from './projection.ts';

/** Options of {@link callerSync}. */
export interface CallerSyncOptions {
  /**
   * When true, a request without a signed-in user (`req.caller.userId === null`) is answered 401
   * `unauthenticated` (events, spec 5.6: "Area C: every endpoint other than login requires the
   * header Authorization: Bearer <ACCESS_TOKEN>"); when false it passes untouched (collection,
   * whose anonymous routes, e.g. public forms, decide for themselves).
   */
  requireUser: boolean;
  /** How many callers the process-local cache remembers (default 10,000; oldest dropped first). */
  maxEntries?: number;
}

/**
 * Express middleware (after `requireGateway`) keeping the users projection current from the
 * caller's JWT claims (name, e-mail, whether it is verified) with {@link UsersProjection.recordCaller}, cheaply: a
 * bounded process-local cache remembers the claims last recorded per user id, so the database is
 * touched only when a user is first seen by this process or their claims changed. A caller without
 * an e-mail claim is not recorded; a missing name falls back to the e-mail. Errors of the write go
 * to `next(err)` (500).
 */
export function callerSync(
  projection: UsersProjection,
  db: Knex,
  options: CallerSyncOptions,
): RequestHandler {
  const cache = new ClaimsCache(options.maxEntries ?? 10_000);
  return (req, _res, next) => {
    const { userId, name, email, emailVerified } = req.caller;
    if (userId === null) return next(options.requireUser ? unauthenticated() : undefined);
    if (!email) return next();
    const key = `${name ?? ''}\u0000${email.toLowerCase()}\u0000${emailVerified}`;
    if (cache.get(userId) === key) return next();
    const caller = { id: userId, name: name ?? email, email, email_verified: emailVerified };
    projection.recordCaller(db, caller).then(() => {
      cache.set(userId, key);
      next();
    }, next);
  };
}

/** A map bounded to `max` entries that drops the oldest insertion when full. */
class ClaimsCache {
  private readonly entries = new Map<number, string>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get(id: number): string | undefined {
    return this.entries.get(id);
  }

  set(id: number, key: string): void {
    this.entries.delete(id);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(id, key);
  }
}
