import type { RequestHandler } from 'express';

/**
 * Runs `handlers` in order as one Express middleware, with Express's own rules: `next()` goes
 * on, `next(err)` (any truthy value) leaves the chain with the error, a handler that throws or
 * returns a rejected promise passes that error on, and the last `next()` leaves the chain.
 * Unlike Express, `next('route')` leaves the whole chain (no handler here uses it).
 *
 * The proxied path (issue #21) runs a dozen middlewares on every request; as separate Express
 * layers each one costs the router a match, a prefix trim and its bookkeeping. As one layer,
 * the router does that once.
 */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  const count = handlers.length;
  return (req, res, done) => {
    let i = 0;
    const next = (err?: unknown): void => {
      if (err) return done(err);
      if (i === count) return done();
      const handler = handlers[i++]!;
      try {
        const ret: unknown = handler(req, res, next);
        if (ret instanceof Promise)
          ret.then(undefined, (e: unknown) => next(e || new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
    };
    next();
  };
}
