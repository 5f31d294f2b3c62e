/**
 * Replicas scenario `sse-across`: votes sent through the balancer land on both polls replicas
 * (the `x-served-by-polls` header of each answer names the one that counted it), while
 * live-results streams are held on each polls replica directly and on each gateway replica.
 * Every stream must reach the total of all the votes: a vote counted by one replica appears on
 * the streams held by the other (the counters and their change notices live in Redis).
 */
import { voteBody } from '../lib/fixtures.ts';
import { anonymousInternalJwt, count, ResultsWatcher, tally } from '../lib/replicas.ts';
import type { Scenario } from '../lib/scenario.ts';

const VOTES = 40;

export const sseAcross: Scenario = {
  name: 'sse-across',
  title: 'a vote through one replica appears on results streams held on every other replica',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const poll = (
      await fx.api.expect(201, 'POST', '/api/polls', {
        title: `Across replicas ${fx.runId}`,
        sections: [{ title: 'A', options: [{ label: 'x' }, { label: 'y' }] }],
      })
    ).data as { id: string; sections: Array<{ id: string; options: Array<{ id: string }> }> };
    const watchers = [
      ...stack.namesOf('polls').map(
        (name) =>
          new ResultsWatcher(`${name} (direct)`, stack.urlOf(name), poll.id, {
            authorization: `Bearer ${anonymousInternalJwt(stack, 'polls')}`,
          }),
      ),
      ...stack.namesOf('gateway').map((name) => new ResultsWatcher(name, stack.urlOf(name), poll.id)),
    ];
    try {
      const opened = await Promise.all(watchers.map((w) => w.waitFor(0, 10_000)));
      report.check(
        opened.every(Boolean),
        `results streams open with total 0: ${watchers.map((w) => `${w.label} ${w.status}${w.error ? ` ${w.error}` : ''}`).join(', ')}`,
      );
      const byPolls = new Map<string, number>();
      const byGateway = new Map<string, number>();
      const statuses = new Map<string, number>();
      for (let i = 0; i < VOTES; i++) {
        const marker = `${fx.runId}-across-${i}`;
        const a = await ctx.anonymous.post(`/api/polls/${poll.id}/vote`, voteBody(poll, marker, i), {
          'idempotency-key': marker,
        });
        count(statuses, String(a.status));
        count(byPolls, String(a.headers['x-served-by-polls'] ?? 'unknown'));
        count(byGateway, String(a.headers['x-served-by-gateway'] ?? 'unknown'));
      }
      report.check(
        statuses.get('201') === VOTES,
        `${VOTES} votes through the balancer: answers ${tally(statuses)}; counted by ${tally(byPolls)}; through ${tally(byGateway)}`,
      );
      report.check(
        stack.namesOf('polls').every((n) => (byPolls.get(n) ?? 0) > 0) &&
          stack.namesOf('gateway').every((n) => (byGateway.get(n) ?? 0) > 0),
        'round robin: every polls replica and every gateway took votes',
      );
      const t0 = performance.now();
      const reached = await Promise.all(watchers.map((w) => w.waitFor(VOTES, 15_000)));
      report.check(
        reached.every(Boolean),
        `every stream shows total_votes ${VOTES} (${((performance.now() - t0) / 1000).toFixed(1)} s after the last vote): ` +
          watchers.map((w) => `${w.label} ${w.lastTotal}`).join(', '),
      );
    } finally {
      for (const w of watchers) w.close();
    }
  },
};
