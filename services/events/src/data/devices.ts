import { randomUUID } from 'node:crypto';
import type { Db } from './tx.ts';

/** A scanner device as the owner sees it (the setup code itself is never stored). */
export interface DeviceRow {
  id: string;
  event_id: string;
  name: string;
  /** The gate it scans at; null: the implicit entrance. */
  gate_id: string | null;
  created_at: Date;
  setup_expires_at: Date;
  set_up_at: Date | null;
  last_seen_at: Date | null;
  revoked_at: Date | null;
  /** Check-ins and presence changes made with the device (history rows). */
  scans: number;
}

/** What authenticating a device's request needs. */
export interface DeviceAuthRow {
  id: string;
  event_id: string;
  name: string;
  /** The gate it scans at; null: the implicit entrance. */
  gate_id: string | null;
  revoked_at: Date | null;
  last_seen_at: Date | null;
}

/** Why a setup code was refused, or the device it set up. */
export type Redeemed =
  | { device: { id: string; event_id: string; name: string } }
  | { refused: 'unknown' | 'used' | 'expired' | 'revoked' };

const LISTED = [
  'd.id',
  'd.event_id',
  'd.name',
  'd.gate_id',
  'd.created_at',
  'd.setup_expires_at',
  'd.set_up_at',
  'd.last_seen_at',
  'd.revoked_at',
];

/** The scans column: history rows written by the device. */
const scansOf = (db: Db) =>
  db('attendance_log as l').count('*').whereRaw('l.scanner_device_id = d.id').as('scans');

const toDevice = (row: DeviceRow & { scans: string | number }): DeviceRow => ({
  ...row,
  scans: Number(row.scans),
});

/** Creates a device of the event with the SHA-256 of its setup code; resolves with the row. */
export async function insertDevice(
  db: Db,
  input: {
    eventId: string;
    name: string;
    gateId: string | null;
    createdBy: number;
    setupCodeHash: string;
    setupExpiresAt: Date;
  },
): Promise<DeviceRow> {
  const id = randomUUID();
  await db('scanner_devices').insert({
    id,
    event_id: input.eventId,
    name: input.name,
    gate_id: input.gateId,
    created_by: input.createdBy,
    setup_code_hash: input.setupCodeHash,
    setup_expires_at: input.setupExpiresAt,
  });
  return (await findDevice(db, input.eventId, id))!;
}

/** The event's devices, newest first, with their scan counts. */
export async function listDevices(db: Db, eventId: string): Promise<DeviceRow[]> {
  const rows = (await db('scanner_devices as d')
    .select(...LISTED, scansOf(db))
    .where('d.event_id', eventId)
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'asc' },
    ])) as Array<DeviceRow & { scans: string }>;
  return rows.map(toDevice);
}

/** One device of the event, or undefined. */
export async function findDevice(db: Db, eventId: string, deviceId: string): Promise<DeviceRow | undefined> {
  const row = (await db('scanner_devices as d')
    .select(...LISTED, scansOf(db))
    .where({ 'd.event_id': eventId, 'd.id': deviceId })
    .first()) as (DeviceRow & { scans: string }) | undefined;
  return row && toDevice(row);
}

/** Marks the device revoked (once; a second call keeps the first time); resolves false when it does not exist. */
export async function revokeDevice(db: Db, eventId: string, deviceId: string): Promise<boolean> {
  const n = await db('scanner_devices')
    .where({ event_id: eventId, id: deviceId })
    .update({ revoked_at: db.raw('coalesce(revoked_at, now())') });
  return n > 0;
}

/** The device behind a request's `dev` claim, or undefined when it no longer exists. */
export async function findDeviceForAuth(db: Db, deviceId: string): Promise<DeviceAuthRow | undefined> {
  return (await db('scanner_devices')
    .select('id', 'event_id', 'name', 'gate_id', 'revoked_at', 'last_seen_at')
    .where('id', deviceId)
    .first()) as DeviceAuthRow | undefined;
}

/** Records that the device was seen now. */
export async function touchDevice(db: Db, deviceId: string): Promise<void> {
  await db('scanner_devices').where('id', deviceId).update({ last_seen_at: db.fn.now() });
}

/**
 * Consumes a setup code, once: the device whose code hash matches, still unused, unexpired and
 * not revoked, is marked set up in the same statement (so of two concurrent uses one wins). When
 * nothing matched, reads why.
 */
export async function redeemSetupCode(db: Db, codeHash: string): Promise<Redeemed> {
  const [done] = (await db('scanner_devices')
    .where('setup_code_hash', codeHash)
    .whereNull('set_up_at')
    .whereNull('revoked_at')
    .where('setup_expires_at', '>', db.fn.now())
    .update({ set_up_at: db.fn.now() })
    .returning(['id', 'event_id', 'name'])) as Array<{ id: string; event_id: string; name: string }>;
  if (done) return { device: done };
  const why = (await db('scanner_devices')
    .select('set_up_at', 'revoked_at')
    .where('setup_code_hash', codeHash)
    .first()) as { set_up_at: Date | null; revoked_at: Date | null } | undefined;
  if (!why) return { refused: 'unknown' };
  if (why.revoked_at) return { refused: 'revoked' };
  return { refused: why.set_up_at ? 'used' : 'expired' };
}
