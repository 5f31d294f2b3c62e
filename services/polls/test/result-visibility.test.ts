import { expect } from 'chai';
import request from 'supertest';
import { eventually } from '@fieldhouse/testkit';
import {
  alice,
  bob,
  carol,
  dave,
  listenOn,
  pollBody,
  startHarness,
  viewResults,
  votesFor,
  type PollsHarness,
  type ResultsViewer,
} from './harness.ts';

/**
 * Result visibility (issue 37, part 1; docs/polls.md, "Result visibility"): each mode for each
 * kind of viewer, before and after they vote, before and after the poll closes; the live
 * stream; the mapping of spec 2.2's `show_stats_public`; bad values.
 */
describe('result visibility (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  type Results = {
    results: Record<string, number>;
    stats_hidden: boolean;
    show_stats_public: boolean;
    my_vote?: Record<string, string> | null;
    analytics: Record<string, unknown>;
    total_votes: number;
    poll: { settings: { results_visibility: string; show_stats_public: boolean } };
  };

  /** A reader: a signed-in user, or anonymous (with a fingerprint, or none). */
  type Reader = { user: number } | { fingerprint: string | null };

  const read = async (pollId: string, reader: Reader): Promise<Results> => {
    const req = request(h.app).get(`/api/polls/${pollId}/results`);
    if ('user' in reader) req.set('Authorization', h.auth(reader.user));
    else {
      req.set('Authorization', h.auth());
      if (reader.fingerprint) req.query({ voter_fingerprint: reader.fingerprint });
    }
    return (await req.expect(200)).body.data as Results;
  };

  const vote = (pollId: string, reader: Reader, votes: Record<string, string>) => {
    const req = request(h.app).post(`/api/polls/${pollId}/vote`);
    if ('user' in reader) return req.set('Authorization', h.auth(reader.user)).send({ votes }).expect(201);
    return req
      .set('Authorization', h.auth())
      .send({ votes, voter_fingerprint: reader.fingerprint })
      .expect(201);
  };

  const close = (pollId: string) =>
    request(h.app).post(`/api/polls/${pollId}/close`).set('Authorization', h.auth(alice)).expect(200);

  /** Whether `r` shows full results (every option counted), or only the reader's own vote. */
  const shown = (r: Results) => !r.stats_hidden;

  const owner: Reader = { user: alice };
  const member: Reader = { user: bob };
  const visitor: Reader = { fingerprint: null };
  const anonVoter: Reader = { fingerprint: 'fp-visibility-1' };

  /**
   * What each viewer sees: [owner, signed-in before voting, signed-in after voting, anonymous
   * visitor (no fingerprint), anonymous voter after voting], while open, then once closed.
   */
  const table: Record<string, { open: boolean[]; closed: boolean[] }> = {
    always: { open: [true, true, true, true, true], closed: [true, true, true, true, true] },
    after_vote: { open: [true, false, true, false, true], closed: [true, true, true, true, true] },
    after_close: { open: [true, false, false, false, false], closed: [true, true, true, true, true] },
    owner_only: { open: [true, false, false, false, false], closed: [true, false, false, false, false] },
  };

  for (const [mode, expected] of Object.entries(table)) {
    it(`${mode}: owner, voter before and after voting, anonymous visitor and voter, open then closed`, async () => {
      const poll = await h.createPoll(alice, pollBody({ results_visibility: mode }));
      expect(poll).to.have.nested.property('settings.results_visibility', mode);
      await vote(poll.id, { user: carol }, votesFor(poll, [1]));
      const seen = async () => {
        const out: Results[] = [];
        out.push(await read(poll.id, owner));
        out.push(await read(poll.id, { user: dave })); // never votes
        out.push(await read(poll.id, member));
        out.push(await read(poll.id, visitor));
        out.push(await read(poll.id, anonVoter));
        return out;
      };
      // Before member and the anonymous voter vote: they see what a non-voter sees.
      const before = await seen();
      expect(shown(before[2]!)).to.equal(expected.open[1]);
      expect(shown(before[4]!)).to.equal(expected.open[3]);
      await vote(poll.id, member, votesFor(poll));
      await vote(poll.id, anonVoter, votesFor(poll));
      for (const [phase, list] of [
        ['open', await seen()],
        ['closed', await close(poll.id).then(seen)],
      ] as const) {
        const want = expected[phase];
        const got = [list[0]!, list[1]!, list[2]!, list[3]!, list[4]!].map(shown);
        expect(got, `${mode}, ${phase}: owner, non-voter, voter, visitor, anonymous voter`).to.deep.equal([
          want[0],
          want[1],
          want[2],
          want[3],
          want[4],
        ]);
        for (const r of list) {
          expect(r.total_votes).to.equal(3); // totals stay visible, as with show_stats_public: false
          expect(r.poll.settings.results_visibility).to.equal(mode);
          expect(r.show_stats_public).to.equal(mode === 'always');
          const pizza = poll.sections[0]!.options[0]!.id;
          if (shown(r)) {
            expect(r.results[pizza]).to.equal(2);
            expect(r.analytics).to.have.property('votes_per_hour');
            expect(r).not.to.have.property('my_vote');
          } else {
            // Counts withheld: at most the reader's own choices, 1 each, and empty analytics.
            expect(Object.values(r.results).every((n) => n === 1)).to.equal(true);
            expect(r.analytics).to.deep.equal({});
            expect(r).to.have.property('my_vote');
          }
        }
      }
      // The hidden voter's own vote is theirs to see, never the others'.
      const hiddenVoter = (await read(poll.id, member)) as Results;
      if (!shown(hiddenVoter)) expect(hiddenVoter.my_vote).to.deep.equal(votesFor(poll));
    });
  }

  it('after_vote: the vote answer shows the counts to the voter who just voted, not before', async () => {
    const poll = await h.createPoll(
      alice,
      pollBody({ results_visibility: 'after_vote', max_votes_per_voter: 2 }),
    );
    await vote(poll.id, { user: carol }, votesFor(poll, [1]));
    const res = await vote(poll.id, member, votesFor(poll));
    const counts = res.body.data.results as Record<string, number>;
    expect(counts[poll.sections[0]!.options[1]!.id]).to.equal(1);
    expect(counts[poll.sections[0]!.options[0]!.id]).to.equal(1);
  });

  it('after_vote: a vote held for its one-time password is not counted, so shows nothing yet', async () => {
    const poll = await h.createPoll(
      alice,
      pollBody({ results_visibility: 'after_vote', require_verification: true }),
    );
    const held = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth())
      .send({ votes: votesFor(poll), voter_fingerprint: 'fp-held-vote', voter_email: 'held@example.com' });
    expect(held.status, JSON.stringify(held.body)).to.equal(202);
    expect(held.body.data.results).to.deep.equal({});
    const r = await read(poll.id, { fingerprint: 'fp-held-vote' });
    expect(r.stats_hidden).to.equal(true);
    expect(r.my_vote).to.equal(null);
  });

  it('after_close: an ended poll (ends_at passed) shows its results to everyone', async () => {
    const poll = await h.createPoll(alice, pollBody({ results_visibility: 'after_close' }));
    await vote(poll.id, { user: carol }, votesFor(poll));
    expect(shown(await read(poll.id, visitor))).to.equal(false);
    const end = new Date(Date.now() - 1000).toISOString();
    await h.db
      .collection('polls')
      .updateOne({ _id: poll.id as never }, { $set: { 'settings.ends_at': end } });
    await h.redis.del(`${h.prefix}p:${poll.id}`);
    expect(shown(await read(poll.id, visitor))).to.equal(true);
  });

  describe('show_stats_public (spec 2.2) maps both ways', () => {
    const settingsOf = async (body: object) => {
      const poll = await h.createPoll(alice, pollBody(body));
      return (poll as unknown as { settings: Record<string, unknown> }).settings;
    };

    it('alone: true is always, false is owner_only; the default is always', async () => {
      expect(await settingsOf({})).to.include({ results_visibility: 'always', show_stats_public: true });
      expect(await settingsOf({ show_stats_public: true })).to.include({
        results_visibility: 'always',
        show_stats_public: true,
      });
      expect(await settingsOf({ show_stats_public: false })).to.include({
        results_visibility: 'owner_only',
        show_stats_public: false,
      });
      expect(await settingsOf({})).to.include({ show_participant_names: false });
    });

    it('results_visibility sets show_stats_public: true exactly for always', async () => {
      for (const mode of ['always', 'after_vote', 'after_close', 'owner_only'])
        expect(await settingsOf({ results_visibility: mode })).to.include({
          results_visibility: mode,
          show_stats_public: mode === 'always',
        });
      expect(await settingsOf({ results_visibility: 'after_vote', show_stats_public: false })).to.include({
        results_visibility: 'after_vote',
      });
    });

    it('an update of either one moves the other; an old poll without results_visibility reads from show_stats_public', async () => {
      const poll = await h.createPoll(alice, pollBody({ results_visibility: 'after_vote' }));
      const patch = (settings: object) =>
        request(h.app)
          .patch(`/api/polls/${poll.id}`)
          .set('Authorization', h.auth(alice))
          .send({ settings })
          .expect(200)
          .then((r) => r.body.data.settings as Record<string, unknown>);
      expect(await patch({ show_stats_public: true })).to.include({ results_visibility: 'always' });
      expect(await patch({ show_stats_public: false })).to.include({ results_visibility: 'owner_only' });
      expect(await patch({ results_visibility: 'after_close' })).to.include({ show_stats_public: false });
      expect(await patch({ allow_comments: false })).to.include({ results_visibility: 'after_close' });

      // Stored before issue 37: only show_stats_public.
      for (const [statsPublic, mode, hidden] of [
        [false, 'owner_only', true],
        [true, 'always', false],
      ] as const) {
        await h.db.collection('polls').updateOne(
          { _id: poll.id as never },
          {
            $set: { 'settings.show_stats_public': statsPublic },
            $unset: { 'settings.results_visibility': '', 'settings.show_participant_names': '' },
          },
        );
        await h.redis.del(`${h.prefix}p:${poll.id}`);
        const r = await read(poll.id, member);
        expect(r.poll.settings).to.include({ results_visibility: mode, show_participant_names: false });
        expect(r.stats_hidden).to.equal(hidden);
        expect(shown(await read(poll.id, owner))).to.equal(true);
      }
    });
  });

  describe('bad values: 422 naming the field', () => {
    const create = (settings: object) =>
      request(h.app)
        .post('/api/polls')
        .set('Authorization', h.auth(alice))
        .send(pollBody(settings))
        .expect(422);

    it('an unknown results_visibility, a show_participant_names that is no boolean', async () => {
      const bad = await create({ results_visibility: 'after_lunch' });
      expect(bad.body.errors).to.have.property('settings.results_visibility');
      expect(bad.headers['content-type']).to.match(/problem\+json/);
      const names = await create({ show_participant_names: 'perhaps' });
      expect(names.body.errors).to.have.property('settings.show_participant_names');
    });

    it('show_stats_public that contradicts results_visibility: the one that changes the setting wins; both changing it is 422', async () => {
      // Create: the other one keeps the default (always, true), so it reads as echoed back.
      const created = await h.createPoll(
        alice,
        pollBody({ results_visibility: 'after_close', show_stats_public: true }),
      );
      const settings = (created as unknown as { settings: Record<string, unknown> }).settings;
      expect(settings).to.include({ results_visibility: 'after_close', show_stats_public: false });
      const patch = (settings: object) =>
        request(h.app)
          .patch(`/api/polls/${created.id}`)
          .set('Authorization', h.auth(alice))
          .send({ settings });
      // A spec 2.2 client echoes the whole settings object back with show_stats_public toggled.
      const toggled = await patch({ results_visibility: 'after_close', show_stats_public: true }).expect(200);
      expect(toggled.body.data.settings).to.include({
        results_visibility: 'always',
        show_stats_public: true,
      });
      // A client that knows results_visibility changes it and echoes show_stats_public.
      const moved = await patch({ results_visibility: 'owner_only', show_stats_public: true }).expect(200);
      expect(moved.body.data.settings).to.include({
        results_visibility: 'owner_only',
        show_stats_public: false,
      });
      // Both change the stored owner_only, and disagree.
      const res = await patch({ results_visibility: 'after_vote', show_stats_public: true }).expect(422);
      expect(res.body.errors).to.have.property('settings.show_stats_public');
      const kept = await request(h.app)
        .get(`/api/polls/${created.id}`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(kept.body.data.settings).to.include({ results_visibility: 'owner_only' });
    });
  });

  describe('the live stream obeys it', () => {
    let listening: Awaited<ReturnType<typeof listenOn>>;
    before(async () => {
      listening = await listenOn(h.app);
    });
    after(async () => {
      await listening?.close();
    });

    const watch = (pollId: string, userId: number) =>
      viewResults<Results>(listening.base, `/api/polls/${pollId}/results/stream`, h.auth(userId));

    it('after_vote: hidden on the stream until that reader votes; others stay hidden; all shown at close', async () => {
      const poll = await h.createPoll(alice, pollBody({ results_visibility: 'after_vote' }));
      const ownerView = await watch(poll.id, alice);
      const voterView = await watch(poll.id, bob);
      const otherView = await watch(poll.id, carol);
      const views = [ownerView, voterView, otherView];
      try {
        await eventually(async () => views.every((v) => v.events.length >= 1), 10_000);
        expect(views.map((v) => v.events.at(-1)!.stats_hidden)).to.deep.equal([false, true, true]);
        await vote(poll.id, member, votesFor(poll));
        await eventually(async () => views.every((v) => v.events.at(-1)?.total_votes === 1), 10_000);
        expect(views.map((v) => v.events.at(-1)!.stats_hidden)).to.deep.equal([false, false, true]);
        const pizza = poll.sections[0]!.options[0]!.id;
        expect(voterView.events.at(-1)!.results[pizza]).to.equal(1);
        expect(otherView.events.at(-1)!.results).to.deep.equal({});
        await close(poll.id);
        await eventually(async () => otherView.events.at(-1)?.stats_hidden === false, 10_000);
        expect(otherView.events.at(-1)!.results[pizza]).to.equal(1);
      } finally {
        for (const v of views) v.res.destroy();
      }
    });

    it('after_close: an open stream shows the results once ends_at passes, with no vote or close to announce it', async () => {
      // A harness of its own with a short heartbeat: the heartbeat is what notices the end.
      const quick = await startHarness({ sseHeartbeatMs: 200 });
      const quickServer = await listenOn(quick.app);
      let view: ResultsViewer<Results> | undefined;
      try {
        const poll = await quick.createPoll(alice, pollBody({ results_visibility: 'after_close' }));
        await request(quick.app)
          .post(`/api/polls/${poll.id}/vote`)
          .set('Authorization', quick.auth(bob))
          .send({ votes: votesFor(poll) })
          .expect(201);
        view = await viewResults<Results>(
          quickServer.base,
          `/api/polls/${poll.id}/results/stream`,
          quick.auth(carol),
        );
        const events = view.events;
        await eventually(async () => events.length >= 1, 10_000);
        expect(events[0]!.stats_hidden).to.equal(true);
        await request(quick.app)
          .patch(`/api/polls/${poll.id}`)
          .set('Authorization', quick.auth(alice))
          .send({ settings: { ends_at: new Date(Date.now() + 1000).toISOString() } })
          .expect(200);
        await eventually(async () => events.at(-1)?.stats_hidden === false, 15_000);
        expect(events.at(-1)!.results[poll.sections[0]!.options[0]!.id]).to.equal(1);
        // Ended, not closed by its owner.
        expect((events.at(-1) as unknown as { poll: { is_open: boolean; closed_at: null } }).poll).to.include(
          {
            is_open: false,
            closed_at: null,
          },
        );
      } finally {
        view?.res.destroy();
        await quickServer.close();
        await quick.stop();
      }
    });

    it('owner_only: a voter watching never gets counts, the owner does', async () => {
      const poll = await h.createPoll(alice, pollBody({ results_visibility: 'owner_only' }));
      const ownerView = await watch(poll.id, alice);
      const voterView = await watch(poll.id, bob);
      try {
        await eventually(async () => ownerView.events.length >= 1 && voterView.events.length >= 1, 10_000);
        await vote(poll.id, member, votesFor(poll));
        await vote(poll.id, { user: carol }, votesFor(poll));
        await eventually(
          async () =>
            ownerView.events.at(-1)?.total_votes === 2 && voterView.events.at(-1)?.total_votes === 2,
          10_000,
        );
        for (const e of voterView.events) expect(e.stats_hidden).to.equal(true);
        expect(Object.values(voterView.events.at(-1)!.results)).to.deep.equal([1, 1, 1]);
        expect(ownerView.events.at(-1)!.results[poll.sections[0]!.options[0]!.id]).to.equal(2);
      } finally {
        ownerView.res.destroy();
        voterView.res.destroy();
      }
    });
  });
});
