import { Joi } from '@fieldhouse/config';
import { NO_EVENT, problems } from '../domain/problems.ts';
import { createDevice, deviceSelf, listDevices, redeemSetupCode, revokeDevice } from '../domain/devices.ts';
import {
  Device,
  deviceParams,
  deviceSchema,
  DeviceSelf,
  NewDevice,
  RedeemedDevice,
  setupCodeSchema,
} from './device-schemas.ts';
import { eventParams } from './event-schemas.ts';
import { actorOf, NOT_VISIBLE, notModified, route, STAFF_ONLY } from './declare.ts';

const tags = ['Scanner devices'];

/**
 * Routes of the gateway's own calls, answered before the caller projection: redeeming a setup
 * code. Any other caller gets 404 (the route is not part of the public API).
 */
export const gatewayOnlyRoutes = [
  /**
   * POST /api/events/devices/redeem `{setup_code}` (the gateway, `amr: "gateway"`): 200 `{id,
   * name, event_id}` of the device it sets up, once. 404 `setup_code_unknown`; 410
   * `setup_code_used`, `setup_code_expired`, `device_revoked`; 422 malformed code.
   */
  route({
    method: 'post',
    path: '/api/events/devices/redeem',
    operationId: 'redeemSetupCode',
    summary: 'Exchange a setup code for its device, once (the gateway only)',
    description:
      'Called by the gateway when a phone opens a setup URL (`POST /api/events/devices/setup` there), which ' +
      'then issues the device credential. Other callers get 404.',
    tags,
    access: 'optional',
    body: setupCodeSchema,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The device set up', body: RedeemedDevice } },
    problems: {
      404: 'Unknown setup code (code setup_code_unknown), or not called by the gateway',
      410: 'Setup code already used or expired, or device revoked (code setup_code_used, setup_code_expired, device_revoked)',
      422: 'Malformed setup code',
    },
    handler: async ({ readBody }, ctx, req) => {
      if (req.caller.method !== 'gateway') throw problems.noSuch({ what: 'route' });
      return { body: await redeemSetupCode(ctx, { setupCode: readBody }) };
    },
  }),
];

/** What a scanner device may call about itself. */
export const deviceSelfRoutes = [
  /** GET /api/events/devices/me (a scanner device): `{id, name, scans, event: {id, name, start_date, end_date, location}, gate: {id, name, scan_exits} | null}`. */
  route({
    method: 'get',
    path: '/api/events/devices/me',
    operationId: 'getDeviceSelf',
    summary: 'The calling scanner device and its event (device credentials only)',
    description:
      'For the door scanner page: the device name, its scan count, its event and the gate it scans at (null: the implicit entrance, entries only). Users get 403.',
    tags,
    responses: { ...notModified, 200: { description: 'The device and its event', body: DeviceSelf } },
    problems: { 403: 'The caller is not a scanner device', 404: 'The device’s event was deleted' },
    handler: async (_input, ctx, req) => {
      if (!req.device) throw problems.notADevice();
      return { body: await deviceSelf(ctx, req.device) };
    },
  }),
];

/** The event owner's management of scanner devices. */
export const deviceRoutes = [
  /**
   * POST /api/events/{event_id}/devices `{name}`: 201 with the device, its one-time `setup_code`
   * and `setup_url` (valid 24 h, shown once). Owner only.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/devices',
    operationId: 'createDevice',
    summary: 'Create a scanner device with a one-time setup code (owner)',
    description:
      'The answer carries `setup_code` and `setup_url` once (only a hash is kept); opening the URL on a phone ' +
      'within 24 hours sets the device up, once. The device may then scan, send offline batches, look invites ' +
      'up and read the stats of this event only.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: deviceSchema,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: NewDevice } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE, 422: 'Invalid name' },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: await createDevice(ctx, { actor: actorOf(req), eventId: params.event_id, device: readBody }),
    }),
  }),

  /** GET /api/events/{event_id}/devices: the event's devices, newest first. Owner only. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/devices',
    operationId: 'listDevices',
    summary: 'Scanner devices of the event, newest first (owner)',
    description: 'Each with status, setup expiry, last request (to the minute) and scans made.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: { ...notModified, 200: { description: 'The devices', body: Joi.array().items(Device) } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: await listDevices(ctx, { actor: actorOf(req), eventId: params.event_id }),
    }),
  }),

  /**
   * POST /api/events/{event_id}/devices/{device_id}/revoke: 200 with the device, now revoked;
   * its next request gets 401 `device_revoked`. Idempotent. Owner only.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/devices/{device_id}/revoke',
    operationId: 'revokeDevice',
    summary: 'Revoke a scanner device: refused from its next request (owner)',
    description: 'Idempotent; the device stays listed and its check-ins stay in the history.',
    tags,
    params: deviceParams,
    notFound: NO_EVENT,
    responses: { 200: { description: 'Revoked', body: Device } },
    problems: { 403: STAFF_ONLY, 404: `${NOT_VISIBLE}, or no such device` },
    handler: async ({ params }, ctx, req) => ({
      body: await revokeDevice(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        deviceId: params.device_id,
      }),
    }),
  }),
];
