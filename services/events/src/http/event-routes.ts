import { Joi } from '@fieldhouse/config';
import type { EventRow } from '../domain/events.ts';
import { createEvent, deleteEvent, getEvent, listEvents, updateEvent } from '../domain/events.ts';
import { NO_EVENT } from '../domain/problems.ts';
import {
  createEventSchema,
  Event,
  eventParams,
  EventSummary,
  listEventsSchema,
  updateEventSchema,
} from './event-schemas.ts';
import { actorOf, NOT_VISIBLE, notModified, route, STAFF_ONLY } from './declare.ts';

/** The list item of spec 4.3: `{id, name, start_date, location}`. */
const summary = (e: EventRow) => ({ id: e.id, name: e.name, start_date: e.start_date, location: e.location });

/** The detail of spec 4.3: `{id, name, description, start_date, end_date, location}`. */
const detail = (e: EventRow) => ({
  id: e.id,
  name: e.name,
  description: e.description,
  start_date: e.start_date,
  end_date: e.end_date,
  location: e.location,
});

const tags = ['Events'];

/**
 * PUT and PATCH /api/events/{event_id}: the same update (the fields given, at least one).
 * 404 unless owner or staff, 403 for staff, 422 on invalid fields or end before start.
 */
const updateRoute = (method: 'put' | 'patch', operationId: string, summaryText: string) =>
  route({
    method,
    path: '/api/events/{event_id}',
    operationId,
    summary: summaryText,
    description: 'Updates the fields given (at least one; `end_date: null` clears it). Owner only.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: updateEventSchema,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The event as updated', body: Event } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE, 422: 'Invalid field, or end_date before start_date' },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: detail(
        await updateEvent(ctx, { actor: actorOf(req), eventId: params.event_id, patch: readBody }),
      ),
    }),
  });

/** Events: spec 4.3 list and detail, plus create, update, delete (design.md). */
export const eventRoutes = [
  /**
   * GET /api/events?when=upcoming|past|all (spec 4.3): JSON array of `{id, name, start_date,
   * location}` of the events the caller owns or is staff of, ordered by start date. 422 on a bad `when`.
   */
  route({
    method: 'get',
    path: '/api/events',
    operationId: 'listEvents',
    summary: 'Events the caller owns or is staff of, ordered by start date (spec 4.3)',
    description:
      '`upcoming`: not ended yet (end_date, else start_date, at or after now UTC); `past`: ended before now.',
    tags,
    query: listEventsSchema,
    responses: {
      ...notModified,
      200: { description: 'JSON array of events', body: Joi.array().items(EventSummary) },
    },
    problems: { 422: 'Unknown `when`' },
    handler: async ({ query }, ctx, req) => ({
      body: (await listEvents(ctx, { actor: actorOf(req), when: query.when })).map(summary),
    }),
  }),

  /**
   * POST /api/events `{name, description?, start_date, end_date?, location}` (design.md):
   * 201 with the detail; the caller owns the event. 422 on invalid fields or end before start.
   */
  route({
    method: 'post',
    path: '/api/events',
    operationId: 'createEvent',
    summary: 'Create an event; the caller owns it',
    tags,
    body: createEventSchema,
    responses: { 201: { description: 'Created', body: Event } },
    problems: { 422: 'Invalid field, or end_date before start_date' },
    handler: async ({ body }, ctx, req) => ({
      status: 201,
      body: detail(await createEvent(ctx, { actor: actorOf(req), input: body })),
    }),
  }),

  /** GET /api/events/{event_id} (spec 4.3): the detail; 404 unless owner or staff. */
  route({
    method: 'get',
    path: '/api/events/{event_id}',
    operationId: 'getEvent',
    summary: 'Event detail (spec 4.3)',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: { description: 'The event', body: Event },
    },
    problems: { 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: detail(await getEvent(ctx, { actor: actorOf(req), eventId: params.event_id })),
    }),
  }),

  updateRoute('put', 'updateEvent', 'Update the fields given (owner)'),
  updateRoute('patch', 'patchEvent', 'Update the fields given (owner); same as PUT'),

  /** DELETE /api/events/{event_id}: 204; removes invites, history and staff. 404 unless owner or staff, 403 for staff. */
  route({
    method: 'delete',
    path: '/api/events/{event_id}',
    operationId: 'deleteEvent',
    summary: 'Delete the event, its invites, history and staff (owner)',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => {
      await deleteEvent(ctx, { actor: actorOf(req), eventId: params.event_id });
      return { status: 204 };
    },
  }),
];
