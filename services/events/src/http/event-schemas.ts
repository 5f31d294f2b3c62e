import { Joi } from '@fieldhouse/config';
import { pathUuidSchema } from '@fieldhouse/http';
import { isLocalDateTime } from '../domain/dates.ts';
import type { EventInput, EventWhen } from '../domain/events.ts';

/** A date-time without zone (spec 2.3 `start_date`/`end_date`), kept exactly as given. */
const localDateTime = Joi.string()
  .custom((v: string, helpers) => (isLocalDateTime(v) ? v : helpers.error('any.invalid')))
  .messages({ 'any.invalid': '{{#label}} must be a date-time without zone, e.g. 2026-06-01T18:30:00' })
  .description('Date-time without zone, ISO 8601 (YYYY-MM-DDTHH:MM[:SS[.ffffff]]), kept as given')
  .example('2026-06-01T18:30:00');

/** The path of one event: `{event_id}`, a UUID (anything else is a 404). */
export const eventParams = Joi.object<{ event_id: string }>({ event_id: pathUuidSchema().required() });

const eventFields = {
  name: Joi.string().trim().min(1).max(255),
  description: Joi.string().allow('').max(10_000),
  start_date: localDateTime,
  end_date: localDateTime.allow(null),
  location: Joi.string().trim().min(1).max(500),
};

/** `POST /api/events` (design.md): `{name, description?, start_date, end_date?, location}`. */
export const createEventSchema = Joi.object<EventInput>({
  ...eventFields,
  name: eventFields.name.required(),
  start_date: eventFields.start_date.required(),
  location: eventFields.location.required(),
}).id('EventInput');

/** `PUT`/`PATCH /api/events/{event_id}`: any subset of the creation fields (at least one). */
export const updateEventSchema = Joi.object<Partial<EventInput>>(eventFields).min(1).id('EventPatch');

/** `GET /api/events` query: `when` = `upcoming` | `past` | `all` (default). */
export const listEventsSchema = Joi.object<{ when: EventWhen }>({
  when: Joi.string()
    .valid('upcoming', 'past', 'all')
    .default('all')
    .description('upcoming: end (else start) >= now UTC; past: ended before now; all (default)'),
});

/** The list item of spec 4.3: `{id, name, start_date, location}`. */
export const EventSummary = Joi.object({
  id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  start_date: localDateTime.required(),
  location: Joi.string().required(),
}).id('EventSummary');

/** The detail of spec 4.3: `{id, name, description, start_date, end_date, location}`. */
export const Event = Joi.object({
  id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  description: Joi.string().allow('').required(),
  start_date: localDateTime.required(),
  end_date: localDateTime.allow(null).required(),
  location: Joi.string().required(),
}).id('Event');
