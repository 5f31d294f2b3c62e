import { Router, type Request, type Response } from 'express';
import { compareLocal } from '../domain/dates.ts';
import { unprocessable, validate } from '@fieldhouse/problem';
import { deleteEvent, insertEvent, listEventsFor, updateEvent, type EventRow } from '../data/events.ts';
import { eventOf, ownedEventOf, userIdOf } from './access.ts';
import type { EventsContext } from './context.ts';
import { createEventSchema, listEventsSchema, updateEventSchema } from './schemas.ts';

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

/** @throws ProblemError 422 when `end_date` is before `start_date`. */
function checkOrder(start: string, end: string | null | undefined): void {
  if (end && compareLocal(end, start) < 0)
    throw unprocessable('end_date', 'end_date must not be before start_date');
}

/** The local (zone-less) date-time now, in UTC, for the `upcoming`/`past` filters. */
const nowLocal = () => new Date().toISOString().slice(0, 23);

/** Events: spec 4.3 list and detail, plus create, update, delete (design.md). */
export function eventRoutes(ctx: EventsContext): Router {
  const r = Router();

  /**
   * GET /api/events?when=upcoming|past|all (spec 4.3): JSON array of `{id, name, start_date,
   * location}` of the events the caller owns or is staff of, ordered by start date.
   * `upcoming`: not ended yet (end_date, else start_date, >= now UTC); `past`: ended. 422 on a bad `when`.
   */
  r.get('/api/events', async (req, res) => {
    const { when } = validate(listEventsSchema, req.query) as { when: 'upcoming' | 'past' | 'all' };
    res.json((await listEventsFor(ctx.db, userIdOf(req), when, nowLocal())).map(summary));
  });

  /**
   * POST /api/events `{name, description?, start_date, end_date?, location}` (design.md):
   * 201 with the detail; the caller owns the event. 422 on invalid fields or end before start.
   */
  r.post('/api/events', async (req, res) => {
    const input = validate(createEventSchema, req.body);
    checkOrder(input.start_date, input.end_date);
    res.status(201).json(detail(await insertEvent(ctx.db, userIdOf(req), input)));
  });

  /** GET /api/events/{event_id} (spec 4.3): the detail; 404 unless owner or staff. */
  r.get('/api/events/:event_id', async (req, res) => {
    res.json(detail((await eventOf(ctx, req)).event));
  });

  /**
   * PUT or PATCH /api/events/{event_id}: updates the fields given (at least one); 200 with the
   * detail. 404 unless owner or staff, 403 for staff, 422 on invalid fields.
   */
  const update = async (req: Request, res: Response) => {
    const event = await ownedEventOf(ctx, req);
    const patch = validate(updateEventSchema, req.body);
    checkOrder(
      patch.start_date ?? event.start_date,
      patch.end_date === undefined ? event.end_date : patch.end_date,
    );
    res.json(detail(await updateEvent(ctx.db, event.id, patch)));
  };
  r.put('/api/events/:event_id', update);
  r.patch('/api/events/:event_id', update);

  /** DELETE /api/events/{event_id}: 204; removes invites, history and staff. 404/403 as update. */
  r.delete('/api/events/:event_id', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    await deleteEvent(ctx.db, event.id);
    res.status(204).end();
  });

  return r;
}
