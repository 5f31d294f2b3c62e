import type { AnyRouteSpec } from '@fieldhouse/http';
import type { CollectionContext } from './context.ts';
import { submissionRoutes } from './submission-routes.ts';

/** Every declared route of the collection service, in matching order. */
export const collectionRouteSpecs: AnyRouteSpec<CollectionContext>[] = [...submissionRoutes];
