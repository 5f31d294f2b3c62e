import { Router } from 'express';
import { whoamiHandler } from '@fieldhouse/internal-auth';
import { callerProjection } from './access.ts';
import { attendanceRoutes } from './attendance.ts';
import type { EventsContext } from './context.ts';
import { eventRoutes } from './events.ts';
import { importRoutes } from './import.ts';
import { inviteRoutes } from './invites.ts';
import { staffRoutes } from './staff.ts';

/** The events service's HTTP routes (full paths under /api/events); every one needs a signed-in user. */
export function eventsRoutes(ctx: EventsContext): Router {
  const router = Router();
  /** GET /api/events/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/events/_whoami', whoamiHandler);
  router.use(callerProjection(ctx));
  router.use(eventRoutes(ctx), staffRoutes(ctx), importRoutes(ctx), inviteRoutes(ctx), attendanceRoutes(ctx));
  return router;
}
