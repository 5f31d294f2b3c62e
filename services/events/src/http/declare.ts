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

/** What the 404 of a route under `/api/events/{event_id}` means (existence is never revealed). */
export const NOT_VISIBLE = 'Unknown event, or the caller is neither its owner nor its staff';

/** What the 404 of a route under `/api/events/{event_id}/invites/{invite_id}` means. */
export const NO_INVITE = 'Unknown event or invite, or the caller is neither owner nor staff';

/** What the 403 of an owner-only route means. */
export const STAFF_ONLY = 'The caller is staff of the event, not its owner';
