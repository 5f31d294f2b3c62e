import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import type { PollsContext } from '../domain/context.ts';
import { pollsDocument } from './document.ts';
import { pollsRouteSpecs } from './routes.ts';
import { storeUnavailable } from './store-unavailable.ts';

/**
 * The polls service's Express router (full paths under /api/polls), after the gateway's JWT
 * check: every declared route (its sign-in check, then parsed and, in tests, checked against
 * the document; `_whoami` is one of them), then the store-unavailable handler (503
 * `store_unavailable` with `Retry-After` on any route).
 */
export function pollsRouter(ctx: PollsContext): Router {
  const router = Router();
  router.use(contractRouter(pollsRouteSpecs, ctx, pollsDocument));
  router.use(storeUnavailable);
  return router;
}
