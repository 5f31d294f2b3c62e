import { Router } from 'express';
import { contractRouter, type AnyRouteSpec, type OpenApiDocument } from '@fieldhouse/http';
import type { PollsContext } from '../domain/context.ts';
import { commentRoutes } from './comment-routes.ts';
import { inviteeRoutes } from './invitee-routes.ts';
import { meetingRoutes } from './meeting-routes.ts';
import { participantRoutes } from './participant-routes.ts';
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
  ...meetingRoutes,
  ...participantRoutes,
  ...inviteeRoutes,
  ...pollsRoutes,
];

/**
 * The polls service's Express router (full paths under /api/polls), after the gateway's JWT
 * check: every declared route (its sign-in check, then parsed and, in tests, checked against
 * `document`, the one http/document.ts generates from {@link pollsRouteSpecs}; `_whoami` is one
 * of them). A store that is unreachable or does not answer is a 503 `store_unavailable` with
 * `Retry-After` on any route (libs/problem's error middleware, and the store watch of
 * libs/http before any route).
 */
export function pollsRouter(ctx: PollsContext, document: OpenApiDocument): Router {
  const router = Router();
  router.use(contractRouter(pollsRouteSpecs, ctx, document));
  return router;
}
