import type { RequestHandler } from 'express';
import { callerSync as usersCallerSync, type UsersProjection } from '@fieldhouse/users-projection';
import type { CollectionContext } from '../domain/context.ts';
import { acceptInvitationsOfCaller } from '../domain/invitation-acceptance.ts';
import { users } from '../users-projection.ts';

/**
 * Keeps the users projection current from the caller's JWT claims (name, e-mail), through the
 * bounded process-local cache of `@fieldhouse/users-projection`'s `callerSync`: the database is
 * touched only when a user is first seen or their claims changed. Then too, when the claims say
 * the address is verified (`email_verified: true`), its open invitations become memberships
 * (docs/collection.md, "Inviting by e-mail"), so a user whose `user.updated` has not reached
 * this service yet joins at their first request after confirming it. Anonymous callers pass
 * (public routes decide for themselves).
 */
export function callerSync(
  ctx: Pick<CollectionContext, 'db' | 'inTransaction'>,
  maxEntries = 10_000,
): RequestHandler {
  const projection: UsersProjection = {
    ...users,
    recordCaller: async (conn, caller) => {
      const written = await users.recordCaller(conn, caller);
      await acceptInvitationsOfCaller(ctx, caller);
      return written;
    },
  };
  return usersCallerSync(projection, ctx.db, { requireUser: false, maxEntries });
}
