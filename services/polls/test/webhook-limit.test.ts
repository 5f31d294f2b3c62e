import { expect } from 'chai';
import request from 'supertest';
import { expectWebhookLimit } from '@fieldhouse/testkit';
import { DEFAULT_MAX_SUBSCRIPTIONS } from '@fieldhouse/webhooks';
import { alice, startHarness, type PollsHarness } from './harness.ts';

const CAP = DEFAULT_MAX_SUBSCRIPTIONS;

/** Issue 31: a poll holds at most `WEBHOOK_MAX_SUBSCRIPTIONS` webhooks (default 20). */
describe('polls service: the cap on a poll’s webhooks (real MongoDB)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.stop());

  const create = (pollId: string, n: number) =>
    request(h.app)
      .post(`/api/polls/${pollId}/webhooks`)
      .set('Authorization', h.auth(alice))
      .send({ url: `https://hooks.example.test/b/${n}`, events: ['poll.vote.counted'] });
  const stored = (pollId: string) =>
    h.db.collection('webhook_subscriptions').countDocuments({ poll_id: pollId });
  const expectLimit = (res: request.Response) => expectWebhookLimit(res, CAP);

  it('answers 422 webhook_limit_reached for one more than the cap, and stores nothing', async () => {
    const poll = await h.createPoll(alice);
    for (let n = 0; n < CAP; n++) await create(poll.id, n).expect(201);
    expectLimit(await create(poll.id, 99));
    expect(await stored(poll.id)).to.equal(CAP);
    const { body } = await request(h.app)
      .get(`/api/polls/${poll.id}/webhooks`)
      .set('Authorization', h.auth(alice))
      .expect(200);
    expect(body.data).to.have.length(CAP);
    expect(body.data.map((s: { url: string }) => s.url)).not.to.include('https://hooks.example.test/b/99');
  });

  it('counts disabled webhooks too, frees a place on delete, and caps each poll on its own', async () => {
    const poll = await h.createPoll(alice);
    const ids: string[] = [];
    for (let n = 0; n < CAP; n++) ids.push((await create(poll.id, n).expect(201)).body.data.id as string);
    await request(h.app)
      .patch(`/api/polls/${poll.id}/webhooks/${ids[0]}`)
      .set('Authorization', h.auth(alice))
      .send({ active: false })
      .expect(200);
    expectLimit(await create(poll.id, 98));
    await request(h.app)
      .delete(`/api/polls/${poll.id}/webhooks/${ids[1]}`)
      .set('Authorization', h.auth(alice))
      .expect(204);
    await create(poll.id, 98).expect(201);
    expectLimit(await create(poll.id, 99));
    await create((await h.createPoll(alice)).id, 0).expect(201);
  });

  it('holds under concurrent creations: exactly the cap is stored', async () => {
    const poll = await h.createPoll(alice);
    const answers = await Promise.all(Array.from({ length: CAP + 10 }, (_, n) => create(poll.id, n)));
    expect(answers.filter((r) => r.status === 201)).to.have.length(CAP);
    for (const r of answers.filter((x) => x.status !== 201)) expectLimit(r);
    expect(await stored(poll.id)).to.equal(CAP);
  });
});
