/**
 * Scenario 2: the suite's Redis shut down without saving (`SHUTDOWN NOSAVE`: every counter,
 * cache and rate-limit key is lost) during a load of votes and results reads, started again
 * (empty) after FAULTS_REDIS_DOWN_MS. Proves: votes succeed again within 5 s of Redis
 * returning; while Redis is away no answer is a 5xx other than 503 with `Retry-After`, and
 * none is missing (a timeout); every vote without an acknowledgement, sent again with its
 * `Idempotency-Key`, is acknowledged; every acknowledged vote is in MongoDB exactly once; the results
 * (Redis counters, through the API) equal MongoDB afterwards.
 */
import { checkAnswers, checkPollCounts, checkStream } from '../lib/durability.ts';
import { Api } from '../lib/http.ts';
import { sleep } from '@fieldhouse/testkit';
import { retryUnacknowledged, SteadyLoad, Stream } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { resultsReadStream, voteStream } from '../lib/streams.ts';

export const redisLoss: Scenario = {
  name: 'redis-loss',
  title: 'Redis SHUTDOWN NOSAVE under votes: back within 5 s, only 503+Retry-After meanwhile, counts exact',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const load = new SteadyLoad(ctx.api, [
      voteStream(fx, ctx.anonymous, settings.rates.votes, `fx-${fx.runId}-r`),
      { ...resultsReadStream(fx.poll.id, 5), api: ctx.anonymous },
    ]);
    load.start();
    const t = { downAt: 0, backAt: 0 };
    let recovery: number | undefined;
    try {
      await sleep(3_000);
      t.downAt = performance.now();
      await stack.redis.shutdownNoSave();
      report.info(`redis shut down (NOSAVE); restarting it in ${secs(settings.redisDownMs)}`);
      await sleep(settings.redisDownMs);
      await stack.redis.start();
      t.backAt = performance.now();
      const until = t.backAt + Math.max(settings.recoveryLimitMs, settings.redisRecoveryTargetMs);
      while (
        (recovery = load.stream('votes').recoveryAfter(t.backAt)) === undefined &&
        performance.now() < until
      )
        await sleep(100);
      await sleep(5_000);
    } finally {
      await load.stop();
    }
    const votes = load.stream('votes');
    const reads = load.stream('reads');
    report.check(
      recovery !== undefined && recovery <= settings.redisRecoveryTargetMs,
      `votes succeed again ${secs(recovery)} after Redis returned (target ≤ ${secs(settings.redisRecoveryTargetMs)})`,
    );
    for (const s of [votes, reads]) {
      const during = s.between(t.downAt, t.backAt + (recovery ?? Infinity));
      checkAnswers(
        report,
        s,
        `while Redis was away and recovering: ${Stream.statusSummary(during)}; ` +
          `503 with Retry-After: ${during.filter((a) => a.status === 503 && a.retryAfter).length}`,
      );
    }
    if (recovery === undefined) {
      // Where it hangs: the polls service directly (no gateway), and Redis itself.
      const direct = new Api(`http://127.0.0.1:${stack.ports.polls}`, { timeoutMs: 5_000 });
      const ready = await direct.get('/readyz');
      direct.close();
      report.info(
        `diagnosis: polls /readyz directly ${ready.status || ready.error} ${ready.text.slice(0, 200)}; ` +
          `redis-server running: ${stack.redis.running}`,
      );
    }
    // As a client would: each vote not acknowledged (a 503 after Redis left) is sent again, once,
    // with its Idempotency-Key: a vote stored before the failure answers with its outcome.
    const before = await ctx.stores.votes(fx.poll.id);
    report.info(`votes: ${await retryUnacknowledged(votes, ctx.anonymous)}`);
    checkStream(report, votes, await ctx.stores.votes(fx.poll.id), before);
    await checkPollCounts(report, ctx.api, ctx.stores, fx.poll.id, settings.settleMs);
  },
};
