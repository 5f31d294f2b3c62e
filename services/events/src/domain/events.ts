import type { BodyReader } from '@fieldhouse/http';
import {
  deleteEvent as deleteEventRow,
  insertEvent,
  listEventsFor,
  updateEvent as updateEventRow,
  type EventInput,
  type EventRow,
} from '../data/events.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext } from './context.ts';
import { compareLocal } from './dates.ts';
import { problems } from './problems.ts';

export type { EventInput, EventRow };

/** Which events a list shows: not ended yet, ended, or all. */
export type EventWhen = 'upcoming' | 'past' | 'all';

/** @throws problems.invalid (422) naming `end_date` when it is before `start_date`. */
function checkOrder(start: string, end: string | null | undefined): void {
  if (end && compareLocal(end, start) < 0)
    throw problems.invalid({ errors: { end_date: ['end_date must not be before start_date'] } });
}

/** The local (zone-less) date-time now, in UTC, for the `upcoming`/`past` filters. */
const nowLocal = () => new Date().toISOString().slice(0, 23);

/**
 * The events the actor owns or is staff of, ordered by start date then id (spec 4.3).
 * `upcoming`: not ended yet (end_date, else start_date, at or after now UTC); `past`: ended.
 */
export function listEvents(ctx: EventsContext, cmd: { actor: Actor; when: EventWhen }): Promise<EventRow[]> {
  return listEventsFor(ctx.db, cmd.actor.userId, cmd.when, nowLocal());
}

/**
 * Creates an event owned by the actor (design.md).
 * @throws problems.invalid (422) when `end_date` is before `start_date`.
 */
export async function createEvent(
  ctx: EventsContext,
  cmd: { actor: Actor; input: EventInput },
): Promise<EventRow> {
  checkOrder(cmd.input.start_date, cmd.input.end_date);
  return ctx.inTransaction((tx) => insertEvent(tx, cmd.actor.userId, cmd.input));
}

/**
 * The event, for its owner and staff (spec 4.3).
 * @throws problems.noSuch (404) unless the actor owns or staffs it.
 */
export async function getEvent(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string },
): Promise<EventRow> {
  return (
    await requireAccess(ctx, {
      actor: cmd.actor,
      permission: 'event.read',
      eventId: cmd.eventId,
    })
  ).event;
}

/**
 * Updates the fields given (at least one; `end_date: null` clears it). Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.invalid (422) when the resulting `end_date` is before the resulting `start_date`.
 */
export async function updateEvent(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; patch: BodyReader<Partial<EventInput>> },
): Promise<EventRow> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const patch = cmd.patch();
  checkOrder(
    patch.start_date ?? event.start_date,
    patch.end_date === undefined ? event.end_date : patch.end_date,
  );
  return ctx.inTransaction((tx) => updateEventRow(tx, event.id, patch));
}

/**
 * Deletes the event with its staff, invites, history, nonces and counters. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff.
 */
export async function deleteEvent(ctx: EventsContext, cmd: { actor: Actor; eventId: string }): Promise<void> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  await ctx.inTransaction((tx) => deleteEventRow(tx, eventId));
}
