import { Router } from 'express';
import { whoamiHandler } from '@fieldhouse/internal-auth';
import type { PollsContext } from '../domain/context.ts';
import type { ResultsStreams } from '../live/results-streams.ts';
import { pollsManagementRoutes } from './polls-routes.ts';
import { resultsRoutes } from './results-routes.ts';
import { socialRoutes } from './social-routes.ts';
import { storeUnavailable } from './store-unavailable.ts';
import { voteRoutes } from './vote-routes.ts';

/** The polls service's HTTP routes (full paths under /api/polls). */
export function pollsRoutes(ctx: PollsContext, streams: ResultsStreams): Router {
  const router = Router();
  /** GET /api/polls/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/polls/_whoami', whoamiHandler);
  router.use(voteRoutes(ctx), resultsRoutes(ctx, streams), socialRoutes(ctx), pollsManagementRoutes(ctx));
  router.use(storeUnavailable);
  return router;
}
