import { Joi } from '@fieldhouse/config';
import { createGate, deleteGate, listGates, updateGate } from '../domain/gates.ts';
import { NO_EVENT } from '../domain/problems.ts';
import { eventParams } from './event-schemas.ts';
import { actorOf, NOT_VISIBLE, notModified, route, scanActorOf, STAFF_ONLY } from './declare.ts';
import { createGateSchema, Gate, gateParams, updateGateSchema } from './gate-schemas.ts';

const tags = ['Gates'];

const NO_GATE = `${NOT_VISIBLE}, or the event has no such gate`;

/** Check-in lists (gates) of an event (docs/events.md, "Gates"): list, create, change, delete. */
export const gateRoutes = [
  /** GET /api/events/{event_id}/gates: the gates by name (`[]`: only the implicit entrance). Owner, staff, devices. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/gates',
    operationId: 'listGates',
    summary: 'The check-in lists (gates) of the event, by name',
    description:
      'An event without gates answers `[]`: every scan goes through its implicit entrance. Owner, staff, devices.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: { ...notModified, 200: { description: 'The gates', body: Joi.array().items(Gate) } },
    problems: { 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: await listGates(ctx, { actor: scanActorOf(req), eventId: params.event_id }),
    }),
  }),

  /** POST /api/events/{event_id}/gates `{name, invite_types?, scan_exits?, allow_reentry?}`: 201 with the gate. Owner. */
  route({
    method: 'post',
    path: '/api/events/{event_id}/gates',
    operationId: 'createGate',
    summary: 'Add a gate (owner)',
    description:
      'Types default to all, exits and re-entry to off; re-entry is off when exits are not scanned.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: createGateSchema,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: Gate } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE, 422: 'Invalid body, or a name the event already uses' },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: await createGate(ctx, { actor: actorOf(req), eventId: params.event_id, gate: readBody }),
    }),
  }),

  /** PATCH /api/events/{event_id}/gates/{gate_id}: changes the fields given; 200 with the gate. Owner. */
  route({
    method: 'patch',
    path: '/api/events/{event_id}/gates/{gate_id}',
    operationId: 'updateGate',
    summary: 'Change a gate (owner); its counts stay',
    tags,
    params: gateParams,
    notFound: NO_EVENT,
    body: updateGateSchema,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The gate', body: Gate } },
    problems: { 403: STAFF_ONLY, 404: NO_GATE, 422: 'Invalid body, or a name the event already uses' },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: await updateGate(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        gateId: params.gate_id,
        gate: readBody,
      }),
    }),
  }),

  /** DELETE /api/events/{event_id}/gates/{gate_id}: 204; its scans stay in the history. Owner. */
  route({
    method: 'delete',
    path: '/api/events/{event_id}/gates/{gate_id}',
    operationId: 'deleteGate',
    summary: 'Delete a gate and its counts (owner); its scans stay in the history',
    tags,
    params: gateParams,
    notFound: NO_EVENT,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: STAFF_ONLY, 404: NO_GATE },
    handler: async ({ params }, ctx, req) => {
      await deleteGate(ctx, { actor: actorOf(req), eventId: params.event_id, gateId: params.gate_id });
      return { status: 204 };
    },
  }),
];
