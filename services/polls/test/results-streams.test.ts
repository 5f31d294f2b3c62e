import { expect } from 'chai';
import request from 'supertest';
import { eventually } from '@fieldhouse/testkit';
import {
  alice,
  countsBy,
  bob,
  carol,
  crowd,
  dave,
  listenOn,
  pollBody,
  startHarness,
  viewResults as view,
  votesFor,
  type PollsHarness,
} from './harness.ts';

/** Results reads so far (GET and pushes), from the service's own counter. */
const resultsReads = async () =>
  Object.values<number>(
    await countsBy('polls_results_reads_total', 'source', ['cache', 'stale', 'joined', 'computed']),
  ).reduce((n, v) => n + v, 0);

describe('live results fan-out (real MongoDB and Redis, real sockets)', () => {
  let h: PollsHarness;
  let listening: Awaited<ReturnType<typeof listenOn>>;
  let base: string;
  before(async () => {
    h = await startHarness();
    listening = await listenOn(h.app);
    base = listening.base;
  });
  after(async () => {
    await listening?.close();
    await h.stop();
  });

  it('sends every change to every stream, reading the results once per view, not once per stream', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_stats_public: true, max_votes_per_voter: 5 }));
    const viewers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        view(base, `/api/polls/${poll.id}/results/stream`, h.auth(crowd(i))),
      ),
    );
    try {
      await eventually(async () => viewers.every((v) => v.events.length >= 1), 20_000);
      const before = await resultsReads();
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(carol))
        .send({ votes: votesFor(poll) })
        .expect(201);
      await eventually(async () => viewers.every((v) => v.events.at(-1)?.total_votes === 1), 20_000);
      // 60 readers with full statistics: one computed read and at most one cached per reader group
      // would be 60+; the fan-out reads once for all of them (plus at most one per extra push).
      expect((await resultsReads()) - before).to.be.at.most(3);
    } finally {
      for (const v of viewers) v.res.destroy();
    }
  });

  it('never sends full statistics to a reader who may only see their own vote', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_stats_public: false, max_votes_per_voter: 5 }));
    const owner = await view(base, `/api/polls/${poll.id}/results/stream`, h.auth(alice));
    const other = await view(base, `/api/polls/${poll.id}/results/stream`, h.auth(bob));
    try {
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(dave))
        .send({ votes: votesFor(poll) })
        .expect(201);
      await eventually(
        async () => owner.events.at(-1)?.total_votes === 1 && other.events.at(-1)?.total_votes === 1,
        5_000,
      );
      expect(owner.events.at(-1)!.stats_hidden).to.equal(false);
      expect(other.events.at(-1)!.stats_hidden).to.equal(true);
      expect(other.events.at(-1)!.results).to.deep.equal({});
    } finally {
      owner.res.destroy();
      other.res.destroy();
    }
  });
});
