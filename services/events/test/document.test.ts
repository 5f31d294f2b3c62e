import { expect } from 'chai';
import request from 'supertest';
import { alice, startHarness, type Harness } from './harness.ts';

/** Every operation of area C, as `METHOD path` (path parameter names as the spec writes them). */
const OPERATIONS = [
  'GET /api/events/_whoami',
  'GET /api/events',
  'POST /api/events',
  'GET /api/events/{event_id}',
  'PUT /api/events/{event_id}',
  'PATCH /api/events/{event_id}',
  'DELETE /api/events/{event_id}',
  'GET /api/events/{event_id}/staff',
  'POST /api/events/{event_id}/staff',
  'DELETE /api/events/{event_id}/staff/{user_id}',
  'POST /api/events/{event_id}/invites/import',
  'POST /api/events/{event_id}/invites',
  'GET /api/events/{event_id}/invites',
  'GET /api/events/{event_id}/invites/{invite_id}',
  'PUT /api/events/{event_id}/invites/{invite_id}',
  'PATCH /api/events/{event_id}/invites/{invite_id}',
  'DELETE /api/events/{event_id}/invites/{invite_id}',
  'GET /api/events/{event_id}/invites/{invite_id}/history',
  'POST /api/events/{event_id}/invites/{invite_id}/resend',
  'GET /api/events/{event_id}/invites/{invite_id}/qr.png',
  'GET /api/events/{event_id}/invites/{invite_id}/qr.svg',
  'PUT /api/events/{event_id}/invites/{invite_id}/presence',
  'POST /api/events/{event_id}/checkin',
  'POST /api/events/{event_id}/checkin/batch',
  'GET /api/events/{event_id}/stats',
  'GET /api/events/{event_id}/attendance',
  'POST /api/events/devices/redeem',
  'GET /api/events/devices/me',
  'POST /api/events/{event_id}/devices',
  'GET /api/events/{event_id}/devices',
  'POST /api/events/{event_id}/devices/{device_id}/revoke',
  'POST /api/events/{event_id}/webhooks',
  'GET /api/events/{event_id}/webhooks',
  'GET /api/events/{event_id}/webhooks/{webhook_id}',
  'PATCH /api/events/{event_id}/webhooks/{webhook_id}',
  'DELETE /api/events/{event_id}/webhooks/{webhook_id}',
  'POST /api/events/{event_id}/webhooks/{webhook_id}/rotate-secret',
  'POST /api/events/{event_id}/webhooks/{webhook_id}/ping',
  'GET /api/events/{event_id}/webhooks/{webhook_id}/deliveries',
  'GET /api/events/{event_id}/webhooks/{webhook_id}/deliveries/{delivery_id}',
  'POST /api/events/{event_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
  'POST /api/events/{event_id}/webhooks/{webhook_id}/redeliver-failed',
  // Issue 36: gates, parties and the CSV import a person can use.
  'GET /api/events/{event_id}/gates',
  'POST /api/events/{event_id}/gates',
  'PATCH /api/events/{event_id}/gates/{gate_id}',
  'DELETE /api/events/{event_id}/gates/{gate_id}',
  'GET /api/events/{event_id}/invites/import/template',
  'POST /api/events/{event_id}/invites/send-held',
  // Issue 36: roles at the door, scanners that decide offline, signed codes.
  'GET /api/events/access',
  'GET /api/events/{event_id}/checkin/snapshot',
  'GET /api/events/{event_id}/checkin/changes',
  'GET /api/events/{event_id}/checkin/keys',
  'GET /api/events/{event_id}/invites/{invite_id}/signed-code',
];

describe('events service: the OpenAPI document generated from the route declarations', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('events_document');
  });
  after(async () => h?.close());

  it('serves at /openapi.json one operation per route of area C, each with a unique operationId', async () => {
    const { body } = await request(h.app).get('/openapi.json').expect(200);
    const paths = body.paths as Record<string, Record<string, { operationId: string }>>;
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).to.have.members(OPERATIONS);
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).to.equal(OPERATIONS.length);
  });

  it('describes the answers by named schemas and every problem by the one Problem schema', async () => {
    const { body } = await request(h.app).get('/openapi.json').expect(200);
    const create = body.paths['/api/events/{event_id}/invites'].post;
    expect(create.responses['201'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/InviteCreated',
    });
    for (const status of ['401', '403', '404', '413', '422'])
      expect(create.responses[status].content['application/problem+json'].schema).to.deep.equal({
        $ref: '#/components/schemas/Problem',
      });
    expect(body.components.schemas.Invite.required).to.include.members(['id', 'code_unique', 'revoked_at']);
  });

  it('answers the whoami route with the caller the gateway signed', async () => {
    const res = await request(h.app).get('/api/events/_whoami').set(h.auth(alice)).expect(200);
    expect(res.body.data).to.include({ userId: alice.id, name: alice.name, email: alice.email });
  });
});
