import type { AnyRouteSpec } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';
import { attendanceRoutes } from './attendance-routes.ts';
import { deviceRoutes, deviceSelfRoutes, gatewayOnlyRoutes } from './device-routes.ts';
import { eventRoutes } from './event-routes.ts';
import { importRoutes } from './import-routes.ts';
import { inviteRoutes } from './invite-routes.ts';
import { staffRoutes } from './staff-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { whoamiRoutes } from './whoami-routes.ts';

/** Routes answered before the caller projection (anonymous callers sent by the gateway included). */
export const eventsOpenRouteSpecs: AnyRouteSpec<EventsContext>[] = [...whoamiRoutes];

/** Routes only the gateway itself calls (`amr: "gateway"`), before the caller projection. */
export const eventsGatewayRouteSpecs: AnyRouteSpec<EventsContext>[] = [...gatewayOnlyRoutes];

/** Routes that need a signed-in caller (spec 5.6), in matching order. */
export const eventsSignedInRouteSpecs: AnyRouteSpec<EventsContext>[] = [
  ...deviceSelfRoutes,
  ...eventRoutes,
  ...deviceRoutes,
  ...staffRoutes,
  ...importRoutes,
  ...inviteRoutes,
  ...attendanceRoutes,
  ...webhookRoutes,
];

/** Every declared route of the events service, in matching order. */
export const eventsRouteSpecs: AnyRouteSpec<EventsContext>[] = [
  ...eventsOpenRouteSpecs,
  ...eventsGatewayRouteSpecs,
  ...eventsSignedInRouteSpecs,
];
