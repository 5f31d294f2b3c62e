import type { AnyRouteSpec } from '@fieldhouse/http';
import type { CollectionContext } from '../domain/context.ts';
import { analysisRoutes } from './analysis-routes.ts';
import { callerRoutes } from './caller-routes.ts';
import { exportRoutes } from './export-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { projectRoutes } from './project-routes.ts';
import { submissionRoutes } from './submission-routes.ts';
import { versionRoutes } from './version-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';
import { workspaceRoutes } from './workspace-routes.ts';

/**
 * The routes answered after the caller's user copy is refreshed, in matching order (the order
 * the routers were mounted in before the declarations: no path of one shadows a later one).
 */
export const signedInRouteSpecs: AnyRouteSpec<CollectionContext>[] = [
  ...workspaceRoutes,
  ...invitationRoutes,
  ...projectRoutes,
  ...versionRoutes,
  ...analysisRoutes,
  ...exportRoutes,
  ...submissionRoutes,
  ...webhookRoutes,
];

/** Every declared route of the collection service (the document): `_whoami` first. */
export const collectionRouteSpecs: AnyRouteSpec<CollectionContext>[] = [
  ...callerRoutes,
  ...signedInRouteSpecs,
];
