import { expect } from 'chai';
import request from 'supertest';
import {
  expectPayloadMatchesAsyncApi,
  expectWebhookChannels,
  outboxWebhookBodies,
} from '@fieldhouse/testkit';
import { EVENT_WEBHOOK_KINDS } from '../src/domain/webhooks.ts';
import { eventsAsyncApiDocument } from '../src/http/asyncapi-route.ts';
import { alice, startHarness, type Harness } from './harness.ts';

describe('events service: the AsyncAPI document of its webhooks', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('events_asyncapi');
  });
  after(async () => h?.close());

  it('is valid AsyncAPI 3.0.0 (official parser) with a send channel for each kind of area C and ping', async () => {
    await expectWebhookChannels(eventsAsyncApiDocument, EVENT_WEBHOOK_KINDS);
  });

  it('serves it at /asyncapi.json without authentication, as /openapi.json', async () => {
    const { body } = await request(h.app).get('/asyncapi.json').expect(200);
    expect(body).to.deep.equal(JSON.parse(JSON.stringify(eventsAsyncApiDocument)));
  });

  it('describes what the triggers write, every kind, from a user and from a scanner device', async () => {
    const eventId = await h.event(alice);
    await request(h.app)
      .post(`/api/events/${eventId}/webhooks`)
      .set(h.auth(alice))
      .send({ url: 'https://hooks.example.test/c', events: [...EVENT_WEBHOOK_KINDS] })
      .expect(201);
    const ada = await h.invite(alice, eventId, 'Ada', 'ada@example.test');
    const bob = await h.invite(alice, eventId, 'Bob', 'bob@example.test');
    await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.auth(alice))
      .send({ code_unique: ada.code_unique })
      .expect(200);
    await request(h.app)
      .put(`/api/events/${eventId}/invites/${ada.id}/presence`)
      .set(h.auth(alice))
      .send({ presence: false })
      .expect(200);
    const created = await request(h.app)
      .post(`/api/events/${eventId}/devices`)
      .set(h.auth(alice))
      .send({ name: 'East door' })
      .expect(201);
    const device = await request(h.app)
      .post('/api/events/devices/redeem')
      .set(h.gatewayAuth())
      .send({ setup_code: created.body.setup_code })
      .expect(200);
    await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.deviceAuth({ id: device.body.id, eventId }))
      .send({ code_unique: bob.code_unique, scanned_at: new Date(Date.now() - 60_000).toISOString() })
      .expect(200);

    const bodies = await outboxWebhookBodies(h.db);
    expect(new Set(bodies.map((b) => b.type))).to.deep.equal(new Set(EVENT_WEBHOOK_KINDS));
    for (const b of bodies) expectPayloadMatchesAsyncApi(eventsAsyncApiDocument, b.type, b);
    const byDevice = bodies.find(
      (b) => b.type === 'invite.checked_in' && JSON.stringify(b.data).includes(bob.id),
    );
    expect(byDevice!.data).to.deep.include({ by: { user_id: null, scanner_device_id: device.body.id } });
  });
});
