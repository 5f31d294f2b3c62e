/**
 * Scenario 5: FAULTS_SSE_STREAMS live-results streams (`GET /api/polls/{id}/results/stream`
 * through the gateway; the target is 10,000) from many loopback client addresses
 * (FAULTS_SSE_PER_ADDRESS streams per address), opened by a separate process
 * (lib/sse-clients.ts), while votes and results reads go on. Proves: every stream opens, none
 * is dropped, every stream receives the final results (its totals never go down), and every
 * vote and results read is answered with the streams open. Their latency (target p99 ≤ 100 ms)
 * is printed, not judged here: speed targets are judged by the benchmark
 * (`npm run bench:streams`), where the machine is otherwise idle; a fault suite that failed on
 * a latency figure would fail whenever the machine is busy.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { sleep } from '@fieldhouse/testkit';
import { SteadyLoad, Stream, type Stream as LoadStream } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import { percentile } from '../../bench/lib/percentile.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { resultsReadStream, voteStream } from '../lib/streams.ts';

/** Sends `msg` to the clients' process and resolves with its next answer of type `type`. */
function ask<T>(child: ChildProcess, msg: object, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`SSE clients: no ${type} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send(msg);
  });
}

/** The latencies (ms) of a stream's acknowledged requests, sorted. */
const latencies = (s: LoadStream) =>
  s.attempts
    .filter((a) => a.acked)
    .map((a) => a.doneAt - a.sentAt)
    .sort((a, b) => a - b);

export const sseStreams: Scenario = {
  name: 'sse-streams',
  title:
    'many live-results streams from many addresses under votes: each gets every update, every request answered',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const n = settings.sseStreams;
    const perAddress = Math.max(1, settings.ssePerAddress);
    const clients = fork(join(import.meta.dirname, '..', 'lib', 'sse-clients.ts'), [], {
      execArgv: ['--conditions=source'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      const opened = await ask<{
        ok: number;
        failed: number;
        statuses: Record<string, number>;
        errors: string[];
        ms: number;
      }>(
        clients,
        {
          type: 'open',
          url: `${stack.gatewayUrl}/api/polls/${fx.poll.id}/results/stream`,
          count: n,
          perAddress,
        },
        'opened',
        240_000,
      );
      report.check(
        opened.ok === n,
        `${opened.ok} of ${n} streams open from ${Math.ceil(n / perAddress)} addresses (${perAddress} per address) in ${secs(opened.ms)}` +
          ` (answers ${JSON.stringify(opened.statuses)}${opened.errors.length ? `; e.g. ${opened.errors.slice(0, 2).join('; ')}` : ''})`,
      );
      const load = new SteadyLoad(ctx.anonymous, [
        voteStream(fx, ctx.anonymous, settings.sseVoteRate, `fx-${fx.runId}-sse`),
        resultsReadStream(fx.poll.id, settings.sseReadRate),
      ]);
      load.start();
      await sleep(settings.sseSeconds * 1000);
      await load.stop();
      const votes = load.stream('votes');
      const reads = load.stream('reads');
      const total = (await ctx.stores.pollCounts(fx.poll.id)).total;
      const got = await ask<{
        streams: number;
        reached: number;
        stillOpen: number;
        wentDown: number;
        minEvents: number;
        medianEvents: number;
        lastReachedMs: number;
        sample?: number;
      }>(clients, { type: 'await', total, timeoutMs: 20_000 }, 'result', 60_000);
      report.check(
        got.reached === n && got.stillOpen === n && got.wentDown === 0,
        `${got.reached} of ${n} streams received the final total ${total} (the last ${secs(got.lastReachedMs)} after the load ended), ` +
          `${got.stillOpen} still open, ${got.wentDown} saw a total go down; results events per stream: min ${got.minEvents}, median ${got.medianEvents}` +
          (got.sample !== undefined ? `; a late stream is at ${got.sample}` : ''),
      );
      for (const s of [votes, reads]) {
        const ok = s.acked().length;
        report.check(
          ok === s.attempts.length,
          `${s.spec.name} with the streams open: ${ok} of ${s.attempts.length} ok at ${s.spec.rate}/s (answers ${Stream.statusSummary(s.attempts)})`,
        );
        const ms = latencies(s);
        const p99 = percentile(ms, 99);
        report.info(
          `${s.spec.name} latency: p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
            `(target ≤ ${settings.sseP99TargetMs} ms, judged by npm run bench:streams${p99 <= settings.sseP99TargetMs ? '; met here too' : '; not met in this run'})`,
        );
      }
    } finally {
      if (clients.connected) clients.send({ type: 'close' });
      await new Promise((r) => (clients.exitCode !== null ? r(null) : clients.once('exit', r)));
    }
  },
};
