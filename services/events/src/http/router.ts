import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';
import { callerProjection } from './caller-sync.ts';
import { deviceGate } from './device-gate.ts';
import { eventsDocument } from './document.ts';
import { eventsGatewayRouteSpecs, eventsOpenRouteSpecs, eventsSignedInRouteSpecs } from './routes.ts';

/**
 * The events service's Express router (full paths under /api/events): first the scanner-device
 * gate (a device's requests: device live, route in its scope, else 401 `device_revoked` or 403
 * `device_scope`; docs/events.md, "Scanner devices": "Anything else is 403 `device_scope`"), so
 * that no route, `_whoami` included, answers a device outside its scope; then `_whoami` and the
 * gateway's own calls, then the caller projection (401 for anonymous callers; the caller's user
 * copy refreshed; devices pass), then every declared route (parsed and checked against the
 * document).
 */
export function eventsRouter(ctx: EventsContext): Router {
  const router = Router();
  router.use(deviceGate(ctx));
  router.use(contractRouter([...eventsOpenRouteSpecs, ...eventsGatewayRouteSpecs], ctx, eventsDocument));
  const projection = callerProjection(ctx);
  router.use((req, res, next) => (req.device ? next() : projection(req, res, next)));
  router.use(contractRouter(eventsSignedInRouteSpecs, ctx, eventsDocument));
  return router;
}
