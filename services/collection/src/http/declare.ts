import { routeDeclarer } from '@fieldhouse/http';
import type { CollectionContext } from '../domain/context.ts';

/** Declares a collection route: handlers get the {@link CollectionContext} (libs/http/src/contract). */
export const route = routeDeclarer<CollectionContext>();
