import type { Request } from 'express';
import * as access from '../domain/access.ts';
import type { CollectionContext } from '../domain/context.ts';

/*
 * TRANSITION: the access rules moved to domain/access.ts (use cases take the caller, not the
 * request). These adapters keep the old signatures for the submission, sync and photo routes
 * until they move; then this file goes.
 */

/** {@link access.userIdOf} of the request's caller. */
export const userIdOf = (req: Request): number => access.userIdOf(req.caller);

/** {@link access.openToNonMembers} for the request's caller. */
export const openToNonMembers = (
  project: Parameters<typeof access.openToNonMembers>[0],
  req: Request,
): boolean => access.openToNonMembers(project, req.caller);

/** {@link access.projectForCollector} for the request's caller. */
export const projectForCollector = (ctx: CollectionContext, req: Request, projectId: number) =>
  access.projectForCollector(ctx, req.caller, projectId);
