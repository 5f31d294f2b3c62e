import { Router } from 'express';
import { whoamiHandler } from '@fieldhouse/internal-auth';

/** The collection service's HTTP routes (full paths under /api/v1). */
export function collectionRoutes(): Router {
  const router = Router();
  /** GET /api/v1/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/v1/_whoami', whoamiHandler);
  return router;
}
