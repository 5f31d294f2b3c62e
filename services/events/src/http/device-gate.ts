import type { Request, RequestHandler } from 'express';
import { problems } from '../domain/problems.ts';
import type { EventsContext, ScannerDevice } from '../domain/context.ts';
import { liveDevice } from '../domain/devices.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link deviceGate} for a scanner device's request: the device, checked live. */
    device?: ScannerDevice;
  }
}

/**
 * What a scanner device may call (scope `checkin`): scan, offline batch, invite lookup, stats,
 * each under its own event, and its own description. The first group is the event id.
 */
const DEVICE_SCOPE: Array<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/api\/events\/([^/]+)\/checkin\/?$/i },
  { method: 'POST', path: /^\/api\/events\/([^/]+)\/checkin\/batch\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/invites\/?$/i },
  { method: 'GET', path: /^\/api\/events\/([^/]+)\/stats\/?$/i },
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
