import { Router } from 'express';
import { contractRouter, type AnyRouteSpec, type OpenApiDocument } from '@fieldhouse/http';
import type { CollectionContext } from '../domain/context.ts';
import { analysisRoutes } from './analysis-routes.ts';
import { appUserRoutes } from './app-user-routes.ts';
import { openRosaRoutes } from './openrosa-routes.ts';
import { whoamiRoutes } from './whoami-routes.ts';
import { callerSync } from './caller-sync.ts';
import { exportRoutes } from './export-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { projectRoutes } from './project-routes.ts';
import { submissionRoutes } from './submission-routes.ts';
import { versionRoutes } from './version-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { workspaceRoutes } from './workspace-routes.ts';
import { xformRoutes } from './xform-routes.ts';

/**
 * The routes answered after the caller's user copy is refreshed, in matching order (the order
 * the routers were mounted in before the declarations: no path of one shadows a later one).
 */
const signedInRouteSpecs: AnyRouteSpec<CollectionContext>[] = [
  ...workspaceRoutes,
  ...invitationRoutes,
  ...projectRoutes,
  ...versionRoutes,
  ...xformRoutes,
  ...analysisRoutes,
  ...exportRoutes,
  ...submissionRoutes,
  ...webhookRoutes,
  ...appUserRoutes,
  ...openRosaRoutes,
];

/** Every declared route of the collection service (the document): `_whoami` first. */
export const collectionRouteSpecs: AnyRouteSpec<CollectionContext>[] = [
  ...whoamiRoutes,
  ...signedInRouteSpecs,
];

/**
 * The collection service's Express router (full paths under /api/v1): `_whoami`, the caller's
 * user copy refreshed, then every declared route (parsed and, in tests, checked against
 * `document`, the one http/document.ts generates from {@link collectionRouteSpecs}).
 */
export function collectionRouter(ctx: CollectionContext, document: OpenApiDocument): Router {
  const router = Router();
  // GET /api/v1/_whoami answers before the user copy is refreshed, as it always has.
  router.use(contractRouter(whoamiRoutes, ctx, document));
  router.use(callerSync(ctx));
  router.use(contractRouter(signedInRouteSpecs, ctx, document));
  return router;
}
