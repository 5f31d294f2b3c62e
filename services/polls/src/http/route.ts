import { routeDeclarer } from '@fieldhouse/http';
import type { PollsContext } from '../domain/context.ts';

/** Declares a polls route: handlers get the {@link PollsContext} (libs/http/src/contract). */
export const route = routeDeclarer<PollsContext>();
