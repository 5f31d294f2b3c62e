import type { AnyRouteSpec } from '@fieldhouse/http';
import type { PollsContext } from '../domain/context.ts';
import { commentRoutes } from './comment-routes.ts';
import { pollsRoutes } from './polls-routes.ts';
import { reactionRoutes } from './reaction-routes.ts';
import { resultsRoutes } from './results-routes.ts';
import { voteRoutes } from './vote-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { whoamiRoutes } from './whoami-routes.ts';

/**
 * Every route of the polls service, in matching order (full paths under /api/polls):
 * `_whoami` before `/api/polls/{poll_id}`, which would take it for a poll id.
 */
export const pollsRouteSpecs: AnyRouteSpec<PollsContext>[] = [
  ...whoamiRoutes,
  ...voteRoutes,
  ...resultsRoutes,
  ...reactionRoutes,
  ...commentRoutes,
  ...webhookRoutes,
  ...pollsRoutes,
];
