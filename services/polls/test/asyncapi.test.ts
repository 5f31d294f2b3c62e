import { expect } from 'chai';
import request from 'supertest';
import { expectPayloadMatchesAsyncApi, expectWebhookChannels } from '@fieldhouse/testkit';
import { POLL_WEBHOOK_KINDS } from '../src/domain/changes.ts';
import { pollsAsyncApiDocument } from '../src/http/asyncapi-route.ts';
import { alice, bob, pollBody, startHarness, type PollBody, type PollsHarness } from './harness.ts';

type Outboxed = { message: { type: string; time: string; data: { data: Record<string, unknown> } } };

/** The bodies the worker would send for the webhook events in the outbox (`{type, timestamp, data}`). */
async function outboxBodies(h: PollsHarness) {
  const docs = await h.db
    .collection<Outboxed>('outbox')
    .find({ 'message.type': /^webhook\./ })
    .toArray();
  return docs.map(({ message: m }) => ({
    type: m.type.slice('webhook.'.length),
    timestamp: new Date(m.time).toISOString(),
    data: m.data.data,
  }));
}

describe('polls service: the AsyncAPI document of its webhooks', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.stop());

  it('is valid AsyncAPI 3.0.0 (official parser) with a send channel for each kind of area B and ping', async () => {
    await expectWebhookChannels(pollsAsyncApiDocument, POLL_WEBHOOK_KINDS);
  });

  it('serves it at /asyncapi.json without authentication, as /openapi.json', async () => {
    const { body } = await request(h.app).get('/asyncapi.json').expect(200);
    expect(body).to.deep.equal(JSON.parse(JSON.stringify(pollsAsyncApiDocument)));
  });

  it('describes what the service writes, every kind, on an authenticated and on a public poll', async () => {
    const subscribed = async (settings: object) => {
      const poll = await h.createPoll(alice, pollBody({ allow_comments: true, ...settings }));
      await request(h.app)
        .post(`/api/polls/${poll.id}/webhooks`)
        .set('Authorization', h.auth(alice))
        .send({ url: 'https://hooks.example.test/b', events: [...POLL_WEBHOOK_KINDS] })
        .expect(201);
      return poll;
    };
    const votes = (poll: PollBody) => Object.fromEntries(poll.sections.map((s) => [s.id, s.options[0]!.id]));
    const named = await subscribed({ access: 'authenticated' });
    await request(h.app)
      .post(`/api/polls/${named.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votes(named), time_spent: 12 })
      .expect(201);
    const root = await request(h.app)
      .post(`/api/polls/${named.id}/comment`)
      .set('Authorization', h.auth(bob))
      .send({ content: 'Pizza, always.' })
      .expect(201);
    await request(h.app)
      .post(`/api/polls/${named.id}/comment`)
      .set('Authorization', h.auth(alice))
      .send({ content: 'Agreed.', parent_id: root.body.data.id })
      .expect(201);
    await request(h.app).post(`/api/polls/${named.id}/close`).set('Authorization', h.auth(alice)).expect(200);
    const open = await subscribed({ access: 'public' });
    await request(h.app)
      .post(`/api/polls/${open.id}/vote`)
      .set('Authorization', h.auth())
      .send({ votes: votes(open), voter_fingerprint: 'fp-asyncapi-1' })
      .expect(201);

    const bodies = await outboxBodies(h);
    expect(bodies.map((b) => b.type).sort()).to.deep.equal(
      [
        'poll.vote.counted',
        'poll.comment.created',
        'poll.comment.created',
        'poll.closed',
        'poll.vote.counted',
      ].sort(),
    );
    for (const b of bodies) expectPayloadMatchesAsyncApi(pollsAsyncApiDocument, b.type, b);
    const voters = bodies.filter((b) => b.type === 'poll.vote.counted').map((b) => b.data.voter);
    expect(voters).to.deep.include(null);
    expect(voters.filter(Boolean)).to.have.length(1);
  });
});
