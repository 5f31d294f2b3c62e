import { forbidden, notFound } from '@fieldhouse/problem';
import { findEvent, findEventFor, type EventRole, type EventRow } from '../data/events.ts';
import { isDevice, type EventsContext, type ScanActor } from './context.ts';

/** The 404 detail of an event the caller cannot see (or that does not exist). */
export const NO_EVENT = 'No event with this id.';

/**
 * The event and the caller's role in it (spec 5.6: area C needs a signed-in user; design.md:
 * only the owner of an event and its staff see it).
 * @throws ProblemError 404 when the event does not exist or the caller is neither its owner nor
 * its staff (existence is not revealed).
 */
export async function eventOf(
  ctx: EventsContext,
  eventId: string,
  userId: number,
): Promise<{ event: EventRow; role: EventRole }> {
  const found = await findEventFor(ctx.db, eventId, userId);
  if (!found) throw notFound(NO_EVENT);
  return found;
}

/**
 * Like {@link eventOf}, for actions only the owner may take (edit, delete, staff, invites).
 * @throws ProblemError 404 as eventOf; 403 when the caller is staff of the event.
 */
export async function ownedEventOf(ctx: EventsContext, eventId: string, userId: number): Promise<EventRow> {
  const { event, role } = await eventOf(ctx, eventId, userId);
  if (role !== 'owner') throw forbidden('Only the owner of the event can do this.');
  return event;
}

/**
 * The event a scanning caller works on: for a user, as {@link eventOf} (owner or staff); for a
 * scanner device, only the event of its credential.
 * @throws ProblemError 404 when the caller may not scan in this event (existence not revealed).
 */
export async function scannedEventOf(
  ctx: EventsContext,
  eventId: string,
  actor: ScanActor,
): Promise<EventRow> {
  if (!isDevice(actor)) return (await eventOf(ctx, eventId, actor.userId)).event;
  const event = eventId === actor.device.eventId ? await findEvent(ctx.db, eventId) : undefined;
  if (!event) throw notFound(NO_EVENT);
  return event;
}
