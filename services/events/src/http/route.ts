import { routeDeclarer } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';

/** Declares an events route: handlers get the {@link EventsContext} (libs/http/src/contract). */
export const route = routeDeclarer<EventsContext>();
