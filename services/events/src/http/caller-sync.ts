import type { RequestHandler } from 'express';
import { unauthenticated } from '@fieldhouse/problem';
import { recordCaller } from '../domain/callers.ts';
import type { EventsContext } from '../domain/context.ts';

/**
 * Spec 5.6: every area C endpoint needs a signed-in user (401 otherwise). Also records the caller
 * in the users projection from the JWT claims, at most once per process per profile version
 * (so a user can be made staff by e-mail as soon as they have called once).
 * TRANSITION: the lead swaps it for the shared users-projection library at merge.
 */
export function callerProjection(ctx: EventsContext): RequestHandler {
  const seen = new Map<number, string>();
  return async (req, _res, next) => {
    const { userId, name, email } = req.caller;
    if (userId === null) return next(unauthenticated());
    const key = `${name ?? ''}\n${email ?? ''}`;
    if (email && seen.get(userId) !== key) {
      await recordCaller(ctx, { id: userId, name: name ?? email, email });
      if (seen.size > 10_000) seen.clear();
      seen.set(userId, key);
    }
    next();
  };
}
