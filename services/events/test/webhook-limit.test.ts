import { expect } from 'chai';
import request from 'supertest';
import { expectWebhookLimit } from '@fieldhouse/testkit';
import { DEFAULT_MAX_SUBSCRIPTIONS } from '@fieldhouse/webhooks';
import { alice, startHarness, type Harness } from './harness.ts';

/** Issue 31: an event holds at most `WEBHOOK_MAX_SUBSCRIPTIONS` webhooks (default 20). */
describe('events service: the cap on an event’s webhooks (real PostgreSQL)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('events_webhook_limit');
  });
  after(async () => h?.close());

  const create = (eventId: string, n: number) =>
    request(h.app)
      .post(`/api/events/${eventId}/webhooks`)
      .set(h.auth(alice))
      .send({ url: `https://hooks.example.test/c/${n}`, events: ['invite.created'] });

  it('answers 422 webhook_limit_reached for one more than the cap, and stores nothing', async () => {
    const eventId = await h.event(alice);
    for (let n = 0; n < DEFAULT_MAX_SUBSCRIPTIONS; n++) await create(eventId, n).expect(201);
    expectWebhookLimit(await create(eventId, 99), DEFAULT_MAX_SUBSCRIPTIONS);
    const { body: list } = await request(h.app)
      .get(`/api/events/${eventId}/webhooks`)
      .set(h.auth(alice))
      .expect(200);
    expect(list).to.have.length(DEFAULT_MAX_SUBSCRIPTIONS);
    expect(list.map((s: { url: string }) => s.url)).not.to.include('https://hooks.example.test/c/99');
    const [{ n }] = (await h.db('webhook_subscriptions').where({ event_id: eventId }).count({ n: '*' })) as [
      { n: string },
    ];
    expect(Number(n)).to.equal(DEFAULT_MAX_SUBSCRIPTIONS);
  });

  it('counts disabled webhooks too, frees a place on delete, and caps each event on its own', async () => {
    const eventId = await h.event(alice);
    const ids: string[] = [];
    for (let n = 0; n < DEFAULT_MAX_SUBSCRIPTIONS; n++)
      ids.push((await create(eventId, n).expect(201)).body.id as string);
    await request(h.app)
      .patch(`/api/events/${eventId}/webhooks/${ids[0]}`)
      .set(h.auth(alice))
      .send({ active: false })
      .expect(200);
    await create(eventId, 98).expect(422);
    await request(h.app).delete(`/api/events/${eventId}/webhooks/${ids[1]}`).set(h.auth(alice)).expect(204);
    await create(eventId, 98).expect(201);
    await create(eventId, 99).expect(422);
    await create(await h.event(alice), 0).expect(201);
  });

  it('holds under concurrent creations: exactly the cap is stored', async () => {
    const eventId = await h.event(alice);
    const answers = await Promise.all(
      Array.from({ length: DEFAULT_MAX_SUBSCRIPTIONS + 10 }, (_, n) => create(eventId, n)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(DEFAULT_MAX_SUBSCRIPTIONS);
    expect(statuses.filter((s) => s === 422)).to.have.length(10);
    const [{ n }] = (await h.db('webhook_subscriptions').where({ event_id: eventId }).count({ n: '*' })) as [
      { n: string },
    ];
    expect(Number(n)).to.equal(DEFAULT_MAX_SUBSCRIPTIONS);
  });
});
