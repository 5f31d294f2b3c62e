import type { BodyReader } from '@fieldhouse/http';
import {
  arrivalsOf,
  countsOf,
  latestCheckins,
  lockInvitePresence,
  recordPresence,
  type ArrivalBucket,
  type LatestCheckin,
} from '../data/attendance.ts';
import { requireAccess } from './access.ts';
import { scannerOf } from './checkin.ts';
import { gatesAttendanceOf, type GatesAttendance } from './gates.ts';
import type { Actor, EventsContext, ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import { presenceMessage } from './presence.ts';
import { problems } from './problems.ts';
import { statsFrom, type EventStats } from './stats.ts';

/**
 * Sets an invitee's presence (spec 3: "PUT presence with presence=true → present; response
 * success=true and a message naming the invitee as present"); every call is kept in the
 * history. Owner and staff. Resolves with the message.
 * @throws problems.noSuch (404) unless owner or staff, or when the event has no such invite;
 * problems.revoked (409) when marking a revoked invite present; problems.invalid (422) for a bad body.
 */
export async function setPresence(
  ctx: EventsContext,
  cmd: {
    actor: Actor;
    eventId: string;
    inviteId: string;
    presence: BodyReader<{ presence: boolean; scanne_par?: string; device?: string; scanned_at?: Date }>;
  },
): Promise<{ message: string }> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.read',
    eventId: cmd.eventId,
  });
  // An invite id that cannot exist is a 404 before any 422 about the body, as it always was.
  if (!isUuid(cmd.inviteId)) throw problems.noSuch({ what: 'invite' });
  const body = cmd.presence();
  const { presence } = body;
  return ctx.inTransaction(async (tx) => {
    const current = await lockInvitePresence(tx, eventId, cmd.inviteId);
    if (!current) throw problems.noSuch({ what: 'invite' });
    // docs/events.md, "Presence": a revoked invite cannot be marked present (absent it may).
    if (presence && current.revoked_at) throw problems.revoked({ during: 'presence' });
    await recordPresence(tx, eventId, cmd.inviteId, {
      presence,
      previous: current.presence,
      by: scannerOf(cmd.actor, body),
    });
    return { message: presenceMessage(current.nom, presence, current.presence) };
  });
}

/**
 * The attendance statistics of spec 2.3 over the active (non-revoked) invites: `{total,
 * present, absent, taux}`, `taux` = floor(100 * present / total), 0 without invites. Owner,
 * staff, and the event's scanner devices.
 * @throws problems.noSuch (404) unless owner, staff or a device of the event.
 */
export async function eventStats(
  ctx: EventsContext,
  cmd: { actor: ScanActor; eventId: string },
): Promise<EventStats> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  const { total, present } = await countsOf(ctx.db, eventId);
  return statsFrom(total, present);
}

/** How many of the latest check-ins the attendance answer lists. */
const LATEST_CHECKINS = 20;

/**
 * The live attendance of an event (the console's attendance page): the statistics of spec 2.3
 * (`{total, present, absent, taux}`, one snapshot), arrivals per 10-minute window (UTC-aligned
 * starts, windows without arrivals left out) and the latest 20 check-ins, newest first, each with
 * who scanned (`scanne_par`, the scanner device, or the user). Owner and staff.
 * @throws problems.noSuch (404) unless owner or staff.
 */
export async function attendance(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string },
): Promise<{
  stats: EventStats;
  arrivals: ArrivalBucket[];
  latest: LatestCheckin[];
  gates: GatesAttendance;
}> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.read',
    eventId: cmd.eventId,
  });
  const [counts, arrivals, latest, gates] = await Promise.all([
    countsOf(ctx.db, eventId),
    arrivalsOf(ctx.db, eventId),
    latestCheckins(ctx.db, eventId, LATEST_CHECKINS),
    gatesAttendanceOf(ctx.db, eventId),
  ]);
  return { stats: statsFrom(counts.total, counts.present), arrivals, latest, gates };
}
