import { expect } from 'chai';
import { bordaCount, instantRunoff, type BallotGroup } from '../src/domain/ranked-count.ts';
import { ResultsCache, type RenderedResults, type ResultsEntry } from '../src/domain/results-cache.ts';
import type { PollDoc } from '../src/domain/types.ts';
import { alice, countsBy, crowd, listenOn, startHarness, type PollsHarness } from './harness.ts';

/** `polls_results_reads_total` by source, from the process registry (what /metrics shows). */
const readsBySource = () =>
  countsBy('polls_results_reads_total', 'source', ['cache', 'stale', 'joined', 'computed']);

const rendering = (name: string): RenderedResults => ({ dataJson: name, body: Buffer.from(name) });

/** A cache entry in counters state `state`, with full results read at `fullAt` (and an earlier one at `staleAt`). */
const entryOf = (state: string, fullAt?: number, staleAt?: number): ResultsEntry => ({
  pollJson: '{}',
  recentJson: '[]',
  countersState: state,
  poll: {} as PollDoc,
  recent: [],
  snapshot: {
    total: 0,
    voters: 0,
    comments: 0,
    options: {},
    reactions: {},
    hours: {},
    timeSpent: {},
    tallies: {},
  },
  ...(fullAt === undefined
    ? {}
    : { full: { rendered: rendering(`full@${fullAt}`), validUntil: 1e15, readAt: fullAt } }),
  ...(staleAt === undefined
    ? {}
    : { stale: { rendered: rendering(`stale@${staleAt}`), validUntil: 1e15, readAt: staleAt } }),
});

describe('results freshness while votes arrive: single flight, bounded staleness', () => {
  describe('the rule (ResultsCache, no I/O)', () => {
    it("gives the current state's full results whatever their age, an earlier state's only within the bound", () => {
      const cache = new ResultsCache(10, 100);
      expect(cache.servable(entryOf('g:5', 1_000), 'p', 'g:5', 9_000)).to.deep.include({ current: true });
      // The counters moved to g:6: the g:5 results (read at 1,000) serve a reader of 1,050, not one of 1,101.
      const moved = entryOf('g:5', 1_000);
      expect(cache.servable(moved, 'p', 'g:6', 1_050)).to.deep.equal({
        rendered: moved.full!.rendered,
        current: false,
      });
      expect(cache.servable(moved, 'p', 'g:6', 1_101)).to.equal(undefined);
      // The entry is already g:6 but its results are being computed: the carried-over g:5 ones.
      const computing = entryOf('g:6', undefined, 1_000);
      expect(cache.servable(computing, 'p', 'g:6', 1_100)).to.deep.equal({
        rendered: computing.stale!.rendered,
        current: false,
      });
      expect(cache.servable(computing, 'p', 'g:6', 1_101)).to.equal(undefined);
    });

    it('makes later readers wait for the read in flight only when it began within the bound', async () => {
      const cache = new ResultsCache(10, 100);
      expect(cache.refreshing('p', 1_000)).to.equal(false);
      const finish = cache.beginRefresh('p', 1_000);
      expect(cache.refreshing('p', 1_100)).to.equal(true);
      expect(cache.refreshing('p', 1_101)).to.equal(false);
      const shared = cache.servable(entryOf('g:6'), 'p', 'g:6', 1_050);
      expect(shared).to.have.property('join');
      expect(cache.servable(entryOf('g:6'), 'p', 'g:6', 1_101)).to.equal(undefined);
      finish(rendering('fresh'));
      expect((await (shared as { join: Promise<RenderedResults | undefined> }).join)?.dataJson).to.equal(
        'fresh',
      );
      expect(cache.refreshing('p', 1_050)).to.equal(false);
    });

    it('lets an older read in flight end without ending a newer one', () => {
      const cache = new ResultsCache(10, 100);
      const older = cache.beginRefresh('p', 1_000);
      const newer = cache.beginRefresh('p', 1_200);
      older(undefined);
      expect(cache.refreshing('p', 1_250)).to.equal(true);
      newer(undefined);
      expect(cache.refreshing('p', 1_250)).to.equal(false);
    });
  });

  describe('a ranked poll read while votes arrive (API, real MongoDB/FerretDB and Redis)', () => {
    const MAX_STALE_MS = 100;
    let h: PollsHarness;
    let server: { base: string; close: () => Promise<void> };
    before(async () => {
      h = await startHarness({ resultsMaxStaleMs: MAX_STALE_MS });
      server = await listenOn(h.app);
    });
    after(async () => {
      await server?.close();
      await h?.stop();
    });

    interface Ranked {
      id: string;
      sections: Array<{ id: string; options: Array<{ id: string }> }>;
    }
    interface SectionResult {
      ballots: number;
      first_preferences: Record<string, number>;
      instant_runoff: unknown;
      borda: unknown;
    }

    it('answers every read with every vote counted before its start minus the bound, and ends equal to a full count of the ballots', async () => {
      const poll = (await h.createPoll(alice, {
        title: 'Best',
        sections: [
          { title: 'Best', kind: 'ranked', options: ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label })) },
        ],
      })) as unknown as Ranked;
      const section = poll.sections[0]!;
      const ids = section.options.map((o) => o.id);
      const ranking = (n: number) => {
        const order = [...ids];
        for (let i = order.length - 1; i > 0; i--) {
          const j = (n * 7 + i * 13) % (i + 1);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        return order.slice(0, 1 + (n % ids.length));
      };
      const before = await readsBySource();
      /** Times (ms) at which each vote's 201 came back, in order. */
      const counted: number[] = [];
      const VOTES = 240;
      let voting = true;
      const voters = Array.from({ length: 4 }, async (_, w) => {
        for (let n = w; n < VOTES; n += 4) {
          const res = await fetch(`${server.base}/api/polls/${poll.id}/vote`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: h.auth(crowd(n)) },
            body: JSON.stringify({ answers: { [section.id]: ranking(n) } }),
          });
          expect(res.status, await res.clone().text()).to.equal(201);
          await res.arrayBuffer();
          counted.push(Date.now());
        }
      });
      /** Each read: when it started and the total it showed. */
      const reads: Array<{ at: number; total: number }> = [];
      const readers = Array.from({ length: 8 }, async () => {
        while (voting) {
          const at = Date.now();
          const res = await fetch(`${server.base}/api/polls/${poll.id}/results`, {
            headers: { authorization: h.auth(alice) },
          });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as {
            data: { total_votes: number; section_results: SectionResult[] };
          };
          reads.push({ at, total: body.data.total_votes });
        }
      });
      await Promise.all(voters);
      voting = false;
      await Promise.all(readers);

      expect(reads.length).to.be.greaterThan(VOTES);
      for (const r of reads) {
        const surely = counted.filter((t) => t < r.at - MAX_STALE_MS).length;
        expect(r.total, `read at ${r.at}`).to.be.at.least(surely);
      }
      const after = await readsBySource();
      // Readers shared the recompute of another (the single flight) instead of each counting again.
      expect(after.stale! + after.joined! - before.stale! - before.joined!).to.be.greaterThan(0);

      // Once the votes stop, the next read is the full count of the stored ballots.
      const res = await fetch(`${server.base}/api/polls/${poll.id}/results`, {
        headers: { authorization: h.auth(alice) },
      });
      const data = ((await res.json()) as { data: { total_votes: number; section_results: SectionResult[] } })
        .data;
      const stored = await h.db
        .collection<{ poll_id: string; answers: Record<string, string[]> }>('votes')
        .find({ poll_id: poll.id })
        .toArray();
      expect(stored).to.have.length(VOTES);
      const groups = new Map<string, BallotGroup>();
      for (const v of stored) {
        const r = v.answers[section.id]!;
        const g = groups.get(r.join(','));
        if (g) g.count++;
        else groups.set(r.join(','), { ranking: r, count: 1 });
      }
      const ballots = [...groups.values()];
      const firsts = Object.fromEntries(
        ids.map((id) => [id, stored.filter((v) => v.answers[section.id]![0] === id).length]),
      );
      expect(data.total_votes).to.equal(VOTES);
      const ranked = data.section_results[0]!;
      expect(ranked.ballots).to.equal(VOTES);
      expect(ranked.first_preferences).to.deep.equal(firsts);
      expect(ranked.instant_runoff).to.deep.equal(instantRunoff(ids, ballots));
      expect(ranked.borda).to.deep.equal(bordaCount(ids, ballots));
    });

    it('shows a vote to the next read at once when no other read is in flight', async () => {
      const poll = (await h.createPoll(alice, {
        title: 'Quick',
        sections: [{ title: 'Quick', kind: 'ranked', options: [{ label: 'x' }, { label: 'y' }] }],
      })) as unknown as Ranked;
      const section = poll.sections[0]!;
      const read = async () =>
        (
          (await (
            await fetch(`${server.base}/api/polls/${poll.id}/results`, {
              headers: { authorization: h.auth(alice) },
            })
          ).json()) as {
            data: { total_votes: number };
          }
        ).data.total_votes;
      expect(await read()).to.equal(0);
      for (let n = 1; n <= 3; n++) {
        const res = await fetch(`${server.base}/api/polls/${poll.id}/vote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: h.auth(crowd(n, 1)) },
          body: JSON.stringify({ answers: { [section.id]: [section.options[n % 2]!.id] } }),
        });
        expect(res.status).to.equal(201);
        expect(await read()).to.equal(n);
      }
    });
  });
});
