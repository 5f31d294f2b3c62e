import { expect } from 'chai';
import request from 'supertest';
import { expectPayloadMatchesAsyncApi } from '@fieldhouse/testkit';
import { announceEndedPolls } from '../src/domain/ended-polls.ts';
import { pollsAsyncApiDocument } from '../src/http/asyncapi-route.ts';
import { alice, bob, pollBody, startHarness, type PollBody, type PollsHarness } from './harness.ts';

type Outboxed = { _id: string; message: { type: string; time: string; data: { data: Record<string, any> } } }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('polls: poll.closed when a poll’s ends_at passes (real MongoDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    // The announcer is driven by hand here (time passed in), not by its timer.
    h = await startHarness({ endedPollsIntervalMs: 0 });
  });
  after(async () => h?.stop());

  const hours = (n: number) => new Date(Date.now() + n * 3_600_000);
  const closedMessages = async (pollId: string) =>
    (await h.db
      .collection<Outboxed>('outbox')
      .find({ 'message.type': 'webhook.poll.closed', 'message.data.scope.poll_id': pollId })
      .toArray()) as Outboxed[];
  const subscribe = (poll: PollBody) =>
    request(h.app)
      .post(`/api/polls/${poll.id}/webhooks`)
      .set('Authorization', h.auth(alice))
      .send({ url: 'https://hooks.example.test/end', events: ['poll.closed'] })
      .expect(201);

  it('announces an ended poll once, with its results, again when ends_at moves later, never twice on close', async () => {
    const endsAt = hours(1);
    const poll = await h.createPoll(alice, pollBody({ ends_at: endsAt.toISOString() }));
    const quiet = await h.createPoll(alice, pollBody({ ends_at: endsAt.toISOString() })); // no subscription
    await subscribe(poll);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[1]!.id])) })
      .expect(201);

    expect(await announceEndedPolls(h.context, hours(0.5))).to.equal(0); // not ended yet
    expect(await announceEndedPolls(h.context, hours(2))).to.equal(1);
    expect(await announceEndedPolls(h.context, hours(2))).to.equal(0); // announced already
    const [first, ...more] = await closedMessages(poll.id);
    expect(more).to.have.length(0);
    const body = { type: 'poll.closed', timestamp: first!.message.time, data: first!.message.data.data };
    expectPayloadMatchesAsyncApi(pollsAsyncApiDocument, 'poll.closed', body);
    expect(body.data).to.deep.include({ reason: 'ended', total_votes: 1 });
    expect(body.data.poll).to.include({ id: poll.id, closed_at: endsAt.toISOString() });
    expect(body.data.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
    expect(await closedMessages(quiet.id)).to.have.length(0);

    // Closing it by hand now sends nothing more: its end was announced.
    await request(h.app).post(`/api/polls/${poll.id}/close`).set('Authorization', h.auth(alice)).expect(200);
    expect(await closedMessages(poll.id)).to.have.length(1);

    // Reopened with a later end: announced again when that one passes, as a new message.
    await request(h.app).post(`/api/polls/${poll.id}/reopen`).set('Authorization', h.auth(alice)).expect(200);
    const later = hours(3);
    await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send({ settings: { ends_at: later.toISOString() } })
      .expect(200);
    expect(await announceEndedPolls(h.context, hours(2))).to.equal(0);
    expect(await announceEndedPolls(h.context, hours(4))).to.equal(1);
    const again = await closedMessages(poll.id);
    expect(again).to.have.length(2);
    expect(again[1]!._id).to.not.equal(again[0]!._id);
    expect(again[1]!.message.data.data.poll.closed_at).to.equal(later.toISOString());
  });
});
