import type { AnyRouteSpec } from '@fieldhouse/http';
import type { CollectionContext } from './context.ts';

/** Submissions, offline sync and photos (spec 2.1, 4.1). */
export const submissionRoutes: AnyRouteSpec<CollectionContext>[] = [];
