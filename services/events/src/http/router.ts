import { Router } from 'express';
import { contractRouter, type AnyRouteSpec, type OpenApiDocument } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';
import { attendanceRoutes } from './attendance-routes.ts';
import { actorProjection, deviceGate } from './declare.ts';
import { deviceRoutes, deviceSelfRoutes, gatewayOnlyRoutes } from './device-routes.ts';
import { eventRoutes } from './event-routes.ts';
import { gateRoutes } from './gate-routes.ts';
import { importRoutes } from './import-routes.ts';
import { inviteRoutes } from './invite-routes.ts';
import { accessRoutes, offlineRoutes } from './offline-routes.ts';
import { staffRoutes } from './staff-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { whoamiRoutes } from './whoami-routes.ts';

/** Routes answered before the actor projection (anonymous requests sent by the gateway included). */
const openRouteSpecs: AnyRouteSpec<EventsContext>[] = [...whoamiRoutes];

/** Routes only the gateway itself calls (`amr: "gateway"`), before the actor projection. */
const gatewayRouteSpecs: AnyRouteSpec<EventsContext>[] = [...gatewayOnlyRoutes];

/** Routes that need a signed-in actor (spec 5.6), in matching order. */
const signedInRouteSpecs: AnyRouteSpec<EventsContext>[] = [
  ...deviceSelfRoutes,
  ...accessRoutes,
  ...eventRoutes,
  ...deviceRoutes,
  ...staffRoutes,
  ...gateRoutes,
  ...importRoutes,
  ...inviteRoutes,
  ...attendanceRoutes,
  ...offlineRoutes,
  ...webhookRoutes,
];

/** Every declared route of the events service, in matching order (http/document.ts documents them). */
export const eventsRouteSpecs: AnyRouteSpec<EventsContext>[] = [
  ...openRouteSpecs,
  ...gatewayRouteSpecs,
  ...signedInRouteSpecs,
];

/**
 * The events service's Express router (full paths under /api/events): first the scanner-device
 * gate (a device's requests: device live, route in its scope, else 401 `device_revoked` or 403
 * `device_scope`; docs/events.md, "Scanner devices": "Anything else is 403 `device_scope`"), so
 * that no route, `_whoami` included, answers a device outside its scope; then `_whoami` and the
 * gateway's own calls, then the actor projection (401 for anonymous requests; the user copy
 * refreshed; devices pass), then every declared route (parsed, and checked against `document`,
 * the one http/document.ts generates from {@link eventsRouteSpecs}).
 */
export function eventsRouter(ctx: EventsContext, document: OpenApiDocument): Router {
  const router = Router();
  router.use(deviceGate(ctx));
  router.use(contractRouter([...openRouteSpecs, ...gatewayRouteSpecs], ctx, document));
  const projection = actorProjection(ctx);
  router.use((req, res, next) => (req.device ? next() : projection(req, res, next)));
  router.use(contractRouter(signedInRouteSpecs, ctx, document));
  return router;
}
