import { eventRolesOf, findEventFor, type EventRole, type EventRow } from '../data/events.ts';
import type { Actor, EventsContext, ScanActor } from './context.ts';
import { problems } from './problems.ts';

/**
 * What an actor may do to an event, and who may (docs/events.md, "Who sees what"): only the
 * owner and staff see an event; staff read, mark presence and scan; only the owner edits or
 * deletes it, manages staff, devices, webhooks and invites; a scanner device scans, looks
 * invites up and reads the stats of its own event.
 */
const PERMISSIONS = {
  /** See the event, its invites, history, QR codes, statistics; mark presence. */
  'event.read': ['owner', 'staff'],
  /** Change the event, its staff, devices, webhooks and invites. */
  'event.manage': ['owner'],
  /** Scan codes, look invites up, read the statistics (scanner devices too). */
  'event.scan': ['owner', 'staff', 'device'],
} as const satisfies Record<string, ReadonlyArray<EventRole | 'device'>>;

/** A permission of the table above. */
export type Permission = keyof typeof PERMISSIONS;

/** What {@link requireAccess} loaded: the event and the user's role, or only the id for a scanner device. */
export type Granted<P extends Permission> = P extends 'event.scan'
  ? { eventId: string; event?: EventRow; role: EventRole | 'device' }
  : { eventId: string; event: EventRow; role: EventRole };

/**
 * The one access check of the events service, called once per use case (in the manner of
 * immich's `requireAccess({auth, permission, ids})`): may `actor` do `permission` on the event
 * `eventId`? Resolves with what it loaded (the event row and the user's role; for a scanner
 * device, its credential's event id, without a query: the device was read on this request by
 * the device gate, and a device row goes with its event), so the use case does not load it again.
 * @throws problems.noSuch (404) when the actor may not know the event exists (no such event,
 * neither owner nor staff, another event than a device's, a device asking for more than
 * scanning); problems.ownerOnly (403) when they may see it but not do this.
 */
export async function requireAccess<P extends Permission>(
  ctx: EventsContext,
  cmd: { actor: ScanActor; permission: P; eventId: string },
): Promise<Granted<P>> {
  const allowed: ReadonlyArray<string> = PERMISSIONS[cmd.permission];
  const { actor } = cmd;
  if ('device' in actor) {
    if (!allowed.includes('device') || cmd.eventId.toLowerCase() !== actor.device.eventId)
      throw problems.noSuch({ what: 'event' });
    return { eventId: actor.device.eventId, role: 'device' } as Granted<P>;
  }
  const found = await findEventFor(ctx.db, cmd.eventId, actor.userId);
  if (!found) throw problems.noSuch({ what: 'event' });
  if (!allowed.includes(found.role)) throw problems.ownerOnly();
  return { eventId: found.event.id, event: found.event, role: found.role } as Granted<P>;
}

/** The permissions of a role, in the order of the table (docs/events.md, "Who may do what"). */
const permissionsOf = (role: EventRole | 'device'): Permission[] =>
  (Object.keys(PERMISSIONS) as Permission[]).filter((p) =>
    (PERMISSIONS[p] as ReadonlyArray<string>).includes(role),
  );

/**
 * The caller's role and permissions in every event they own or staff (`GET /api/events/access`),
 * so the console offers each role only what it may do. Lists only the caller's own events.
 */
export async function myEventAccess(
  ctx: EventsContext,
  actor: Actor,
): Promise<Array<{ event_id: string; role: EventRole; permissions: Permission[] }>> {
  const rows = await eventRolesOf(ctx.db, actor.userId);
  return rows.map((r) => ({ event_id: r.id, role: r.role, permissions: permissionsOf(r.role) }));
}
