import type { RequestHandler } from 'express';
import { callerSync } from '@fieldhouse/users-projection';
import type { EventsContext } from '../domain/context.ts';
import { users } from '../users-projection.ts';

/**
 * Spec 5.6: "Area C: every endpoint other than login requires the header Authorization: Bearer
 * <ACCESS_TOKEN>" — a caller without a user is answered 401 `unauthenticated`. Also records the
 * caller in the users projection from the JWT claims (libs/users-projection: cached per process,
 * written only when the claims change), so a user who called once can be made staff by e-mail
 * before their user event arrives.
 */
export const callerProjection = (ctx: EventsContext): RequestHandler =>
  callerSync(users, ctx.db, { requireUser: true });
