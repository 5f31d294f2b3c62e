import { Router } from 'express';
import { whoamiHandler } from '@fieldhouse/internal-auth';

/** The events service's HTTP routes (full paths under /api/events). */
export function eventsRoutes(): Router {
  const router = Router();
  /** GET /api/events/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/events/_whoami', whoamiHandler);
  return router;
}
