import { forbidden, notFound } from '@fieldhouse/problem';
import { findEventFor, type EventRole, type EventRow } from '../data/events.ts';
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
 * The id of the event a scanning caller works on: for a user, as {@link eventOf} (owner or
 * staff); for a scanner device, its credential's event, without a query (the device was read on
 * this request by the device gate, and a device row goes with its event: ON DELETE CASCADE).
 * @throws ProblemError 404 when the caller may not scan in this event (existence not revealed).
 */
export async function scannedEventIdOf(
  ctx: EventsContext,
  eventId: string,
  actor: ScanActor,
): Promise<string> {
  if (!isDevice(actor)) return (await eventOf(ctx, eventId, actor.userId)).event.id;
  if (eventId.toLowerCase() !== actor.device.eventId) throw notFound(NO_EVENT);
  return actor.device.eventId;
}
