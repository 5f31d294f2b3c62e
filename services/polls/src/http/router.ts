import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import type { PollsContext } from '../domain/context.ts';
import { pollsDocument } from './document.ts';
import { pollsRouteSpecs } from './routes.ts';

/**
 * The polls service's Express router (full paths under /api/polls), after the gateway's JWT
 * check: every declared route (its sign-in check, then parsed and, in tests, checked against
 * the document; `_whoami` is one of them). A store that is unreachable or does not answer is
 * a 503 `store_unavailable` with `Retry-After` on any route (libs/problem's error middleware,
 * and the store watch of libs/http before any route).
 */
export function pollsRouter(ctx: PollsContext): Router {
  const router = Router();
  router.use(contractRouter(pollsRouteSpecs, ctx, pollsDocument));
  return router;
}
