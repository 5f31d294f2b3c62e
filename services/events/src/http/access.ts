import type { Request, RequestHandler } from 'express';
import { isUuid } from '@fieldhouse/http';
import { forbidden, notFound, unauthenticated } from '@fieldhouse/problem';
import { findEventFor, type EventRole, type EventRow } from '../data/events.ts';
import { upsertCaller } from '../data/users.ts';
import type { EventsContext } from './context.ts';

/** The signed-in caller's user id (routes run after {@link callerProjection}). */
export const userIdOf = (req: Request): number => req.caller.userId!;

/**
 * Spec 5.6: every area C endpoint needs a signed-in user (401 otherwise). Also records the caller
 * in the users projection from the JWT claims, at most once per process per profile version
 * (so a user can be made staff by e-mail as soon as they have called once).
 */
export function callerProjection(ctx: EventsContext): RequestHandler {
  const seen = new Map<number, string>();
  return async (req, _res, next) => {
    const { userId, name, email } = req.caller;
    if (userId === null) return next(unauthenticated());
    const key = `${name ?? ''}\n${email ?? ''}`;
    if (email && seen.get(userId) !== key) {
      await upsertCaller(ctx.db, { id: userId, name: name ?? email, email });
      if (seen.size > 10_000) seen.clear();
      seen.set(userId, key);
    }
    next();
  };
}

/**
 * The event named by `:event_id` and the caller's role in it.
 * @throws ProblemError 404 when the id is not a UUID, the event does not exist, or the caller is
 * neither its owner nor its staff (existence is not revealed).
 */
export async function eventOf(
  ctx: EventsContext,
  req: Request,
): Promise<{ event: EventRow; role: EventRole }> {
  const id = req.params.event_id;
  const found = isUuid(id) ? await findEventFor(ctx.db, id, userIdOf(req)) : undefined;
  if (!found) throw notFound('No event with this id.');
  return found;
}

/**
 * Like {@link eventOf}, for actions only the owner may take (edit, delete, staff, invites).
 * @throws ProblemError 404 as eventOf; 403 when the caller is staff of the event.
 */
export async function ownedEventOf(ctx: EventsContext, req: Request): Promise<EventRow> {
  const { event, role } = await eventOf(ctx, req);
  if (role !== 'owner') throw forbidden('Only the owner of the event can do this.');
  return event;
}
