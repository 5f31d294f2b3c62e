/**
 * Scenario: the embedded store (FerretDB) stopped with SIGSTOP under votes and results reads:
 * its process lives, every operation hangs (as in the wedge of issue 31). Proves
 * (docs/reliability.md, "When a store hangs"): polls answers 503 with `Retry-After` within 1 s
 * of the stop; no request waits past the client's timeout and no answer is a 5xx other than
 * 503 with `Retry-After`; the store's supervisor kills it and starts it again within 30 s;
 * votes succeed again within 5 s of its return; every vote without an acknowledgement, sent
 * again with its `Idempotency-Key`, is acknowledged; every acknowledged vote is in MongoDB
 * exactly once, and Redis's counts equal MongoDB's afterwards.
 */
import { checkAnswers, checkPollCounts, checkStream } from '../lib/durability.ts';
import { sleep } from '@fieldhouse/testkit';
import { waitForPort } from '../../scripts/lib/net.ts';
import { retryUnacknowledged, SteadyLoad, Stream } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { resultsReadStream, voteStream } from '../lib/streams.ts';

export const storeStop: Scenario = {
  name: 'store-stop',
  title:
    'FerretDB SIGSTOP under votes: 503+Retry-After within 1 s, restarted within 30 s, votes back within 5 s, counts exact',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const store = stack.store;
    if (!store) {
      report.check(false, 'the suite’s own FerretDB is needed to stop it: run without MONGO_URL');
      return;
    }
    const port = Number(new URL(stack.mongoUrl).port);
    const load = new SteadyLoad(ctx.api, [
      voteStream(fx, ctx.anonymous, settings.rates.votes, `fx-${fx.runId}-ss`),
      { ...resultsReadStream(fx.poll.id, 5), api: ctx.anonymous },
    ]);
    load.start();
    const t = { stopAt: 0, killedAt: 0, backAt: 0 };
    let recovery: number | undefined;
    const restartsBefore = store.restarts.length;
    try {
      await sleep(3_000);
      const stopped = store.process.child;
      t.stopAt = performance.now();
      stopped.kill('SIGSTOP');
      report.info(`FerretDB (pid ${stopped.pid}) stopped with SIGSTOP: alive, deaf`);
      const limit = t.stopAt + settings.storeRestartTargetMs + 15_000;
      while (store.restarts.length === restartsBefore && performance.now() < limit) await sleep(100);
      t.killedAt = performance.now();
      if (store.restarts.length > restartsBefore) {
        report.info(`its supervisor: ${store.restarts.at(-1)!.killedBecause ?? 'it exited'}`);
        await waitForPort(port, 20_000);
        t.backAt = performance.now();
        const until = t.backAt + Math.max(settings.recoveryLimitMs, settings.storeRecoveryTargetMs);
        while (
          (recovery = load.stream('votes').recoveryAfter(t.backAt)) === undefined &&
          performance.now() < until
        )
          await sleep(100);
      } else {
        stopped.kill('SIGCONT'); // not restarted: let it go on, so the checks below can read
      }
      await sleep(5_000);
    } finally {
      await load.stop();
    }
    const votes = load.stream('votes');
    const reads = load.stream('reads');
    const firstRefusal = [...votes.attempts, ...reads.attempts]
      .filter((a) => a.sentAt >= t.stopAt && a.status === 503 && a.retryAfter)
      .reduce<number | undefined>((best, a) => Math.min(best ?? Infinity, a.doneAt - t.stopAt), undefined);
    report.check(
      firstRefusal !== undefined && firstRefusal <= settings.storeRefusalTargetMs,
      `polls answered 503 with Retry-After ${secs(firstRefusal)} after the stop (target ≤ ${secs(settings.storeRefusalTargetMs)})`,
    );
    const restartedIn = t.backAt ? t.backAt - t.stopAt : undefined;
    report.check(
      restartedIn !== undefined && restartedIn <= settings.storeRestartTargetMs,
      `the supervisor killed the hung store and it accepted connections again ${secs(restartedIn)} after the stop (target ≤ ${secs(settings.storeRestartTargetMs)})`,
    );
    report.check(
      recovery !== undefined && recovery <= settings.storeRecoveryTargetMs,
      `votes succeed again ${secs(recovery)} after the store returned (target ≤ ${secs(settings.storeRecoveryTargetMs)})`,
    );
    for (const s of [votes, reads]) {
      const during = s.between(t.stopAt, (t.backAt || t.killedAt) + (recovery ?? 0));
      const slowest = Math.max(0, ...during.map((a) => a.doneAt - a.sentAt));
      checkAnswers(
        report,
        s,
        `while the store was away: ${Stream.statusSummary(during)}, slowest answer ${secs(slowest)}`,
      );
    }
    const before = await ctx.stores.votes(fx.poll.id);
    report.info(`votes: ${await retryUnacknowledged(votes, ctx.anonymous)}`);
    checkStream(report, votes, await ctx.stores.votes(fx.poll.id), before);
    await checkPollCounts(report, ctx.api, ctx.stores, fx.poll.id, settings.settleMs);
  },
};
