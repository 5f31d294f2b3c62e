import { Router } from 'express';
import { contractRouter, expressPath } from '@fieldhouse/http';
import { requireUser } from '@fieldhouse/internal-auth';
import type { PollsContext } from '../domain/context.ts';
import { pollsDocument } from './document.ts';
import { pollsRouteSpecs } from './routes.ts';
import { storeUnavailable } from './store-unavailable.ts';

/**
 * The polls service's Express router (full paths under /api/polls), after the gateway's JWT
 * check: routes declared without `access` need a signed-in user (401 before anything is
 * parsed), then every declared route (parsed and, in tests, checked against the document),
 * then the store-unavailable handler (503 `store_unavailable` with `Retry-After` on any route).
 */
export function pollsRouter(ctx: PollsContext): Router {
  const router = Router();
  for (const spec of pollsRouteSpecs)
    if ((spec.access ?? 'authenticated') === 'authenticated')
      router[spec.method](expressPath(spec.path), requireUser);
  router.use(contractRouter(pollsRouteSpecs, ctx, pollsDocument));
  router.use(storeUnavailable);
  return router;
}
