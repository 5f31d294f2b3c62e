import type { Request, RequestHandler } from 'express';
import { routeDeclarer } from '@fieldhouse/http';
import { callerSync } from '@fieldhouse/users-projection';
import type { Actor, EventsContext, ScanActor } from '../domain/context.ts';
import { users } from '../users-projection.ts';

/** Declares an events route: handlers get the {@link EventsContext} (libs/http/src/contract). */
export const route = routeDeclarer<EventsContext>();

/**
 * The 304 answer of a GET whose `If-None-Match` matches the answer's ETag (Express computes
 * a weak ETag for every body it sends): spread into the `responses` of every GET route.
 */
export const notModified = {
  304: { description: 'Not modified: the If-None-Match header matched the ETag of the answer' },
} as const;

/** What the 404 of a route under `/api/events/{event_id}` means (existence is never revealed). */
export const NOT_VISIBLE = 'Unknown event, or the caller is neither its owner nor its staff';

/** What the 404 of a route under `/api/events/{event_id}/invites/{invite_id}` means. */
export const NO_INVITE = 'Unknown event or invite, or the caller is neither owner nor staff';

/** What the 403 of an owner-only route means. */
export const STAFF_ONLY = 'The caller is staff of the event, not its owner';

/**
 * Spec 5.6: "Area C: every endpoint other than login requires the header Authorization: Bearer
 * <ACCESS_TOKEN>" — a request without a user is answered 401 `unauthenticated`. Also records the
 * actor in the users projection from the JWT claims (libs/users-projection: cached per process,
 * written only when the claims change), so a user who called once can be made staff by e-mail
 * before their user event arrives.
 */
export const actorProjection = (ctx: EventsContext): RequestHandler =>
  callerSync(users, ctx.db, { requireUser: true });

/** The signed-in actor's user id (routes run after the actor projection, which refuses anonymous requests). */
export const userIdOf = (req: Request): number => req.caller.userId!;

/** The request's User-Agent, at most 255 characters (the `device` a scan records by default). */
const userAgentOf = (req: Request) => req.get('user-agent')?.slice(0, 255) ?? null;

/** The actor as use cases see them: id, name and e-mail from the gateway's JWT, and the User-Agent (255 characters at most). */
export const actorOf = (req: Request): Actor => ({
  userId: req.caller.userId!,
  name: req.caller.name,
  email: req.caller.email,
  userAgent: userAgentOf(req),
});

/** The scanning actor: the scanner device of the request (set by the device gate), else the user. */
export const scanActorOf = (req: Request): ScanActor =>
  req.device ? { device: req.device, userAgent: userAgentOf(req) } : actorOf(req);
