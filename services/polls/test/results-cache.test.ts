import { expect } from 'chai';
import request from 'supertest';
import { fetchResultsInputs } from '../src/data/results-inputs.ts';
import { fullResultsValidUntil, ResultsCache, type ResultsEntry } from '../src/domain/results-cache.ts';
import type { PollDoc } from '../src/domain/types.ts';
import { alice, countsBy, bob, pollBody, startHarness, votesFor, type PollsHarness } from './harness.ts';

/** `polls_results_reads_total` by source, from the process registry (what /metrics shows). */
const readsBySource = () => countsBy('polls_results_reads_total', 'source', ['cache', 'computed']);

describe('results cache (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  const results = (pollId: string, userId?: number) =>
    request(h.app).get(`/api/polls/${pollId}/results`).set('Authorization', h.auth(userId)).expect(200);

  it('sends unchanged results again from the cache, with the same ETag (304 when the client has it)', async () => {
    const poll = await h.createPoll(alice);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll), time_spent: 12 })
      .expect(201);
    await results(poll.id); // fills the Redis copies of the poll and its recent comments
    const first = await results(poll.id);
    const before = await readsBySource();
    const second = await results(poll.id);
    const after = await readsBySource();
    expect(after.cache - before.cache).to.equal(1);
    expect(after.computed - before.computed).to.equal(0);
    expect(second.text).to.equal(first.text);
    expect(second.headers.etag).to.be.a('string').and.equal(first.headers.etag);
    expect(second.headers['content-type']).to.match(/^application\/json/);
    await request(h.app)
      .get(`/api/polls/${poll.id}/results`)
      .set('Authorization', h.auth())
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });

  it('shows every change at the next read: vote, reaction, comment and poll edit', async () => {
    const poll = await h.createPoll(alice);
    const option = poll.sections[0]!.options[1]!.id;
    await results(poll.id);
    await results(poll.id); // cached from here on
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll, [1]) })
      .expect(201);
    let d = (await results(poll.id)).body.data;
    expect(d.total_votes).to.equal(1);
    expect(d.results[option]).to.equal(1);
    await request(h.app)
      .post(`/api/polls/${poll.id}/react`)
      .set('Authorization', h.auth(bob))
      .send({ reaction_type: 'fire' })
      .expect(201);
    d = (await results(poll.id)).body.data;
    expect(d.reactions_summary.fire).to.equal(1);
    await request(h.app)
      .post(`/api/polls/${poll.id}/comment`)
      .set('Authorization', h.auth(bob))
      .send({ content: 'Tacos, obviously' })
      .expect(201);
    d = (await results(poll.id)).body.data;
    expect(d.comments_total).to.equal(1);
    expect(d.recent_comments.map((c: { content: string }) => c.content)).to.deep.equal(['Tacos, obviously']);
    await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send({ title: 'Team dinner' })
      .expect(200);
    d = (await results(poll.id)).body.data;
    expect(d.poll.title).to.equal('Team dinner');
    expect(d.total_votes).to.equal(1);
  });

  it('recomputes cached results when the poll ends, without any write', async () => {
    const endsAt = new Date(Date.now() + 1_500).toISOString();
    const poll = await h.createPoll(alice, pollBody({ ends_at: endsAt }));
    expect((await results(poll.id)).body.data.poll.is_open).to.equal(true);
    expect((await results(poll.id)).body.data.poll.is_open).to.equal(true);
    await new Promise((r) => setTimeout(r, Date.parse(endsAt) - Date.now() + 50));
    const d = (await results(poll.id)).body.data;
    expect(d.poll.is_open).to.equal(false);
  });

  it('keeps a reader without full statistics apart: the owner sees counts, others only their own vote', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_stats_public: false }));
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll, [2]) })
      .expect(201);
    for (let i = 0; i < 2; i++) {
      const owner = (await results(poll.id, 1)).body.data;
      expect(owner.stats_hidden).to.equal(false);
      expect(owner.results[poll.sections[0]!.options[2]!.id]).to.equal(1);
      const other = (await results(poll.id, 3)).body.data;
      expect(other.stats_hidden).to.equal(true);
      expect(other.results).to.deep.equal({});
      const voter = (await results(poll.id, 2)).body.data;
      expect(voter.my_vote).to.deep.equal(votesFor(poll, [2]));
    }
  });

  it('sends the counter hash only when its state differs from the one the caller holds', async () => {
    const poll = await h.createPoll(alice);
    const ctx = h.context;
    const keys = {
      poll: ctx.polls.cacheKey(poll.id),
      counters: ctx.counters.key(poll.id),
      recent: ctx.results.recentKey(poll.id),
    };
    const first = await fetchResultsInputs(h.redis, keys, '');
    expect(first.countersState).to.be.a('string');
    expect(first.counterPairs).to.include('total');
    const same = await fetchResultsInputs(h.redis, keys, first.countersState!);
    expect(same.countersState).to.equal(first.countersState);
    expect(same.counterPairs).to.equal(null);
    const gen = await ctx.counters.generation(poll.id);
    await ctx.counters.apply(poll.id, gen, { comments: 1 }, []);
    const changed = await fetchResultsInputs(h.redis, keys, first.countersState!);
    expect(changed.countersState).to.not.equal(first.countersState);
    expect(changed.counterPairs).to.include('comments');
    await ctx.counters.drop(poll.id);
    const lost = await fetchResultsInputs(h.redis, keys, first.countersState!);
    expect(lost).to.include({ countersState: null, counterPairs: null });
  });
});

describe('ResultsCache and fullResultsValidUntil', () => {
  const poll = (settings: Partial<PollDoc['settings']>) =>
    ({ settings: { starts_at: null, ends_at: null, ...settings } }) as unknown as PollDoc;
  const at = Date.parse('2026-03-01T10:20:00.000Z');

  it('keeps full results until the next UTC hour, or the poll opening or ending sooner', () => {
    expect(fullResultsValidUntil(poll({}), at)).to.equal(Date.parse('2026-03-01T11:00:00.000Z'));
    expect(fullResultsValidUntil(poll({ ends_at: '2026-03-01T10:30:00.000Z' }), at)).to.equal(
      Date.parse('2026-03-01T10:30:00.000Z'),
    );
    expect(fullResultsValidUntil(poll({ starts_at: '2026-03-01T10:25:00.000Z' }), at)).to.equal(
      Date.parse('2026-03-01T10:25:00.000Z'),
    );
    // Times already past or after the hour change nothing.
    expect(
      fullResultsValidUntil(
        poll({ starts_at: '2026-03-01T09:00:00.000Z', ends_at: '2026-03-01T12:00:00.000Z' }),
        at,
      ),
    ).to.equal(Date.parse('2026-03-01T11:00:00.000Z'));
  });

  it('holds at most maxPolls entries, dropping the least recently stored', () => {
    const cache = new ResultsCache(2);
    const entry = (n: string) => ({ pollJson: n }) as ResultsEntry;
    cache.set('a', entry('a'));
    cache.set('b', entry('b'));
    cache.set('a', entry('a2'));
    cache.set('c', entry('c'));
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.get('a')?.pollJson).to.equal('a2');
    expect(cache.get('c')?.pollJson).to.equal('c');
  });
});
