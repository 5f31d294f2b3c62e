import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import { whoamiHandler } from '@fieldhouse/internal-auth';
import { callerSync } from './caller-sync.ts';
import type { CollectionContext } from './context.ts';
import { collectionDocument } from './document.ts';
import { projectRoutes } from './projects.ts';
import { analysisRoutes } from './analyses.ts';
import { exportRoutes } from './exports.ts';
import { collectionRouteSpecs } from './routes.ts';
import { versionRoutes } from './versions.ts';
import { workspaceRoutes } from './workspaces.ts';

/**
 * The collection service's Express router (full paths under /api/v1): the caller's user copy
 * refreshed, then every declared route (parsed and checked against the document).
 */
export function collectionRouter(ctx: CollectionContext): Router {
  const router = Router();
  /** GET /api/v1/_whoami: the caller as the gateway's JWT describes it. */
  router.get('/api/v1/_whoami', whoamiHandler);
  router.use(callerSync(ctx.db));
  router.use(contractRouter(collectionRouteSpecs, ctx, collectionDocument));
  // TRANSITION: routers not yet declared.
  router.use(workspaceRoutes(ctx));
  router.use(projectRoutes(ctx));
  router.use(versionRoutes(ctx));
  router.use(analysisRoutes(ctx));
  router.use(exportRoutes(ctx));
  return router;
}
