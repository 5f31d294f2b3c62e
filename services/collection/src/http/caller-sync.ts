import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { upsertUser } from '../data/users.ts';

/**
 * Keeps the users projection current from the caller's JWT claims (name, e-mail), cheaply: a
 * process-local cache remembers what was last written per user, so the database is touched only
 * when a user is first seen or their claims changed. Claims count as of now (`updated_at`), and
 * the projection keeps the newest version, like the `user.*` events.
 */
export function callerSync(db: Knex, maxEntries = 10_000): RequestHandler {
  const seen = new Map<number, string>();
  return (req, _res, next) => {
    const { userId, name, email } = req.caller;
    if (userId === null || !email) return next();
    const key = `${name ?? ''}\u0000${email}`;
    if (seen.get(userId) === key) return next();
    upsertUser(db, { id: userId, name: name ?? email, email, updated_at: new Date() }).then(() => {
      if (seen.size >= maxEntries) seen.clear();
      seen.set(userId, key);
      next();
    }, next);
  };
}
