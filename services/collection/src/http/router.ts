import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import { callerRoutes } from './caller-routes.ts';
import { callerSync } from './caller-sync.ts';
import type { CollectionContext } from '../domain/context.ts';
import { collectionDocument } from './document.ts';
import { signedInRouteSpecs } from './routes.ts';

/**
 * The collection service's Express router (full paths under /api/v1): `_whoami`, the caller's
 * user copy refreshed, then every declared route (parsed and checked against the document).
 */
export function collectionRouter(ctx: CollectionContext): Router {
  const router = Router();
  // GET /api/v1/_whoami answers before the user copy is refreshed, as it always has.
  router.use(contractRouter(callerRoutes, ctx, collectionDocument));
  router.use(callerSync(ctx.db));
  router.use(contractRouter(signedInRouteSpecs, ctx, collectionDocument));
  return router;
}
