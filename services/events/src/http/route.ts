import { routeDeclarer } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';

/** Declares an events route: handlers get the {@link EventsContext} (libs/http/src/contract). */
export const route = routeDeclarer<EventsContext>();

/**
 * The 304 answer of a GET whose `If-None-Match` matches the answer's ETag (Express computes
 * a weak ETag for every body it sends): spread into the `responses` of every GET route.
 */
export const notModified = {
  304: { description: 'Not modified: the If-None-Match header matched the ETag of the answer' },
} as const;
