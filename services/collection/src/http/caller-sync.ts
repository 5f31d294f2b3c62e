import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { callerSync as usersCallerSync } from '@fieldhouse/users-projection';
import { users } from '../users-projection.ts';

/**
 * Keeps the users projection current from the caller's JWT claims (name, e-mail), through the
 * bounded process-local cache of `@fieldhouse/users-projection`'s `callerSync`: the database is
 * touched only when a user is first seen or their claims changed. Anonymous callers pass (public
 * routes decide for themselves).
 */
export function callerSync(db: Knex, maxEntries = 10_000): RequestHandler {
  return usersCallerSync(users, db, { requireUser: false, maxEntries });
}
