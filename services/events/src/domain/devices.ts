import { createHash } from 'node:crypto';
import type { BodyReader } from '@fieldhouse/http';
import {
  findDevice,
  findDeviceForAuth,
  touchDevice,
  insertDevice,
  listDevices as listDeviceRows,
  redeemSetupCode as redeemRow,
  revokeDevice as revokeRow,
  type DeviceRow,
} from '../data/devices.ts';
import { findEvent } from '../data/events.ts';
import { findGate } from '../data/gates.ts';
import { requireAccess } from './access.ts';
import { generateCode, normalizeCode } from './codes.ts';
import type { Actor, EventsContext, ScannerDevice } from './context.ts';
import { isUuid } from './ids.ts';
import { problems } from './problems.ts';

/** How long a setup code can be used, once: 24 hours (docs/events.md, "Scanner devices"). */
const SETUP_CODE_TTL_MS = 24 * 3600_000;

/** Symbols of a setup code: 16 of the invite-code alphabet, log2(29) * 16 ≈ 78 bits. */
const SETUP_CODE_LENGTH = 16;

/** A scanner device as the API shows it (`scans`: history rows it wrote; dates ISO 8601). */
export interface Device {
  id: string;
  event_id: string;
  name: string;
  /** The gate it scans at (docs/events.md, "Gates"); null: the implicit entrance. */
  gate_id: string | null;
  status: 'awaiting_setup' | 'active' | 'revoked';
  created_at: string;
  setup_expires_at: string;
  set_up_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
  scans: number;
}

/** A new device with its one-time setup code (shown once) and the console URL that uses it. */
export type NewDevice = Device & { setup_code: string; setup_url: string };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The API shape of a device row. */
function deviceOf(row: DeviceRow): Device {
  return {
    id: row.id,
    event_id: row.event_id,
    name: row.name,
    gate_id: row.gate_id,
    status: row.revoked_at ? 'revoked' : row.set_up_at ? 'active' : 'awaiting_setup',
    created_at: row.created_at.toISOString(),
    setup_expires_at: row.setup_expires_at.toISOString(),
    set_up_at: iso(row.set_up_at),
    last_seen_at: iso(row.last_seen_at),
    revoked_at: iso(row.revoked_at),
    scans: row.scans,
  };
}

/** SHA-256 hex of a setup code in canonical form: the only form in which it is stored. */
const hashSetupCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** A setup code grouped by four for reading aloud or typing (`XXXX-XXXX-XXXX-XXXX`). */
const grouped = (code: string) => code.match(/.{1,4}/g)!.join('-');

/**
 * Creates a scanner device for the event, with a setup code that works once within 24 hours.
 * The answer carries the code (shown once: only its hash is stored) and the console's setup URL,
 * `<PUBLIC_URL>/scan/setup#code=<code>` (in the fragment, so it reaches no server log). Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.invalid (422) for a bad name.
 */
export async function createDevice(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; device: BodyReader<{ name: string; gate_id?: string | null }> },
): Promise<NewDevice> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const { name, gate_id: gateId = null } = cmd.device();
  if (gateId && !(await findGate(ctx.db, eventId, gateId)))
    throw problems.invalid({ errors: { gate_id: ['No gate with this id in this event.'] } });
  const code = generateCode(SETUP_CODE_LENGTH);
  const row = await ctx.inTransaction((tx) =>
    insertDevice(tx, {
      eventId,
      name,
      gateId,
      createdBy: cmd.actor.userId,
      setupCodeHash: hashSetupCode(code),
      setupExpiresAt: new Date(Date.now() + SETUP_CODE_TTL_MS),
    }),
  );
  return {
    ...deviceOf(row),
    setup_code: grouped(code),
    setup_url: `${ctx.publicUrl}/scan/setup#code=${code}`,
  };
}

/**
 * The event's scanner devices, newest first, with status, last request and scan count. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff.
 */
export async function listDevices(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string },
): Promise<Device[]> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  return (await listDeviceRows(ctx.db, eventId)).map(deviceOf);
}

/**
 * Revokes a scanner device: its next request is refused (401 `device_revoked`), its unused setup
 * code too; its history stays. Idempotent. Owner only.
 * @throws problems.noSuch (404) unless owner or staff, or when the event has no such device;
 * problems.ownerOnly (403) for staff.
 */
export async function revokeDevice(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; deviceId: string },
): Promise<Device> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const { deviceId } = cmd;
  if (!isUuid(deviceId)) throw problems.noSuch({ what: 'device' });
  const row = await ctx.inTransaction(async (tx) =>
    (await revokeRow(tx, eventId, deviceId)) ? findDevice(tx, eventId, deviceId) : undefined,
  );
  if (!row) throw problems.noSuch({ what: 'device' });
  return deviceOf(row);
}

/** The problem of each reason a setup code is refused. */
const REFUSALS = {
  unknown: problems.setupCodeUnknown,
  used: problems.setupCodeUsed,
  expired: problems.setupCodeExpired,
  revoked: problems.setupDeviceRevoked,
} as const;

/**
 * Exchanges a setup code, once, for the device it sets up: `{id, name, event_id}` (the gateway
 * then issues the device credential). Only the gateway calls this.
 * @throws problems.setupCodeUnknown (404); problems.setupCodeUsed, setupCodeExpired,
 * setupDeviceRevoked (410); problems.invalid (422) for a code that cannot be one.
 */
export async function redeemSetupCode(
  ctx: EventsContext,
  cmd: { setupCode: BodyReader<{ setup_code: string }> },
): Promise<{ id: string; name: string; event_id: string }> {
  const code = normalizeCode(cmd.setupCode().setup_code);
  if (!code || code.length !== SETUP_CODE_LENGTH)
    throw problems.invalid({
      detail: 'A setup code has 16 letters and digits.',
      errors: { setup_code: ['A setup code has 16 letters and digits (dashes and spaces are ignored).'] },
    });
  const done = await ctx.inTransaction((tx) => redeemRow(tx, hashSetupCode(code)));
  if ('device' in done) return done.device;
  throw REFUSALS[done.refused]();
}

/**
 * What a scanner device knows of itself: its id and name, its event (`id`, `name`, dates,
 * `location`), how many scans it made, and the gate it scans at (`{id, name, scan_exits}`; null
 * for the event's implicit entrance, which scans entries only: docs/events.md, "Gates").
 * @throws problems.noSuch (404) when its event is gone.
 */
export async function deviceSelf(
  ctx: EventsContext,
  device: { id: string; eventId: string },
): Promise<{
  id: string;
  name: string;
  scans: number;
  event: Record<string, unknown>;
  gate: { id: string; name: string; scan_exits: boolean } | null;
}> {
  const [row, event] = await Promise.all([
    findDevice(ctx.db, device.eventId, device.id),
    findEvent(ctx.db, device.eventId),
  ]);
  if (!row || !event) throw problems.noSuch({ what: 'deviceEvent' });
  const gate = row.gate_id ? await findGate(ctx.db, device.eventId, row.gate_id) : undefined;
  return {
    id: row.id,
    name: row.name,
    scans: row.scans,
    event: {
      id: event.id,
      name: event.name,
      start_date: event.start_date,
      end_date: event.end_date,
      location: event.location,
    },
    gate: gate ? { id: gate.id, name: gate.name, scan_exits: gate.scan_exits } : null,
  };
}

/** Last-seen times are written at most once a minute per device. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The scanner device behind a request's credential (claim `dev`), checked live so revocation
 * is effective on the device's next request; records when it was last seen (at most once a
 * minute, without waiting).
 * @throws problems.deviceRevoked (401) when the device was revoked or deleted, or the claim
 * names another event than the device's.
 */
export async function liveDevice(
  ctx: EventsContext,
  claim: { id: string; eventId: string },
): Promise<ScannerDevice> {
  const row = isUuid(claim.id) ? await findDeviceForAuth(ctx.db, claim.id) : undefined;
  if (!row || row.revoked_at || row.event_id !== claim.eventId) throw problems.deviceRevoked();
  if (!row.last_seen_at || Date.now() - row.last_seen_at.getTime() > TOUCH_EVERY_MS)
    touchDevice(ctx.db, row.id).catch((err: unknown) =>
      ctx.logger.warn('could not record a device request', { err }),
    );
  return { id: row.id, name: row.name, eventId: row.event_id, gateId: row.gate_id };
}
