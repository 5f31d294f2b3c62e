import { Router } from 'express';
import { whoamiHandler } from '@fieldhouse/internal-auth';

/** The polls service's HTTP routes (full paths under /api/polls). */
export function pollsRoutes(): Router {
  const router = Router();
  /** GET /api/polls/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/polls/_whoami', whoamiHandler);
  return router;
}
