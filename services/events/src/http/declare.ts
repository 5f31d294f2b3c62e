import type { Request, RequestHandler } from 'express';
import { routeDeclarer } from '@fieldhouse/http';
import { callerSync } from '@fieldhouse/users-projection';
import type { Actor, EventsContext, ScanActor, ScannerDevice } from '../domain/context.ts';
import { liveDevice } from '../domain/devices.ts';
import { problems } from '../domain/problems.ts';
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

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link deviceGate} for a scanner device's request: the device, checked live. */
    device?: ScannerDevice;
  }
}

/**
 * What a scanner device may call (scope `checkin`): scan, offline batch, invite lookup, stats,
 * the offline copy (download, changes, signing keys), each under its own event, and its own description. The first group is the event id.
 */
const DEVICE_SCOPE: Array<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/api\/events\/([^/]+)\/checkin\/?$/i },
  { method: 'POST', path: /^\/api\/events\/([^/]+)\/checkin\/batch\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/invites\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/stats\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/gates\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/checkin\/(snapshot|changes|keys)\/?$/i },
  { method: 'GET', path: /^\/api\/events\/devices\/me\/?$/i },
];

/** Whether a request of a device may go on: its scope holds the route, under its own event. */
function inScope(req: Request, device: ScannerDevice): 'yes' | 'other-event' | 'no' {
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  for (const rule of DEVICE_SCOPE) {
    if (rule.method !== method) continue;
    const m = rule.path.exec(req.path);
    if (!m) continue;
    return m[1] === undefined || m[1].toLowerCase() === device.eventId ? 'yes' : 'other-event';
  }
  return 'no';
}

/**
 * For requests of scanner devices (`amr: "device"` in the gateway's JWT; docs/events.md,
 * "Scanner devices"): checks on every request that the device still exists and is not revoked
 * (401 `device_revoked`, so revocation is effective on the device's next request), then that the
 * route is in its `checkin` scope (403 `device_scope`) and under its own event (404, the other
 * event not revealed), records when it was last seen, and sets `req.device`. Other callers pass.
 */
export function deviceGate(ctx: EventsContext): RequestHandler {
  return (req, _res, next) => {
    const claim = req.caller.device;
    if (req.caller.method !== 'device' || !claim) {
      next();
      return;
    }
    liveDevice(ctx, claim).then((device) => {
      const scope = inScope(req, device);
      if (scope === 'no') return next(problems.deviceScope());
      if (scope === 'other-event') return next(problems.noSuch({ what: 'event' }));
      req.device = device;
      next();
    }, next);
  };
}
