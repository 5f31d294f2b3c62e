/**
 * Scenario 1: SIGKILL of each service and each worker, one at a time, under a steady load of
 * votes, submissions and check-ins; each is started again after FAULTS_DOWN_MS. Afterwards
 * every write without an acknowledgement is sent again once with its retry key. Proves: every
 * acknowledged write (first try or retry) is stored exactly once, every retry is acknowledged (PostgreSQL for submissions and check-ins, MongoDB
 * for votes), nothing is stored twice, the poll's counters (API) equal MongoDB afterwards, and
 * each process recovers: a service's recovery is the time from its restart to the first
 * acknowledged write through it; a worker's, to the end of a probe only it can finish
 * (lib/probes.ts).
 */
import { sleep } from '@fieldhouse/testkit';
import { Stream } from '../lib/load.ts';
import { probeWorker } from '../lib/probes.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { SERVICES, WORKERS, type ServiceName } from '../lib/stack.ts';
import { steadyWriteLoad } from '../lib/streams.ts';

/** The stream whose writes go through each service (the gateway: all of them). */
const STREAM_OF: Record<ServiceName, string[]> = {
  gateway: ['votes', 'submissions', 'checkins'],
  collection: ['submissions'],
  polls: ['votes'],
  events: ['checkins'],
};

export const killEach: Scenario = {
  name: 'kill-each',
  title: 'SIGKILL each service and worker under load: every acknowledged write durable exactly once',
  async run(ctx, report) {
    const { stack } = ctx;
    const targets = [...SERVICES, ...WORKERS];
    const seconds = 4 + targets.length * ((settings.downMs + settings.afterRestartMs) / 1000 + 3);
    const { load, checkDurable } = await steadyWriteLoad(ctx, report, {
      name: 'Kill-each',
      tag: 'k',
      seconds,
    });
    load.start();
    try {
      await sleep(3_000);
      for (const target of targets) {
        const killedAt = performance.now();
        await stack.kill(target);
        await sleep(settings.downMs);
        stack.restart(target);
        const restartAt = performance.now();
        let recovery: number | undefined;
        let detail = '';
        if ((SERVICES as readonly string[]).includes(target)) {
          const names = STREAM_OF[target as ServiceName];
          const until = restartAt + settings.recoveryLimitMs;
          for (;;) {
            const times = names.map((n) => load.stream(n).recoveryAfter(restartAt));
            if (times.every((t) => t !== undefined)) {
              recovery = Math.max(...(times as number[]));
              break;
            }
            if (performance.now() > until) break;
            await sleep(100);
          }
          const windowEnd = recovery === undefined ? Infinity : restartAt + recovery;
          const window = names.map(
            (n) => `${n} ${Stream.statusSummary(load.stream(n).between(killedAt, windowEnd))}`,
          );
          detail = `answers from kill to recovery: ${window.join('; ')}`;
          await sleep(Math.max(0, settings.afterRestartMs - (performance.now() - restartAt)));
        } else {
          const t0 = performance.now();
          try {
            await probeWorker(ctx, target as (typeof WORKERS)[number], settings.recoveryLimitMs);
            recovery = performance.now() - t0;
            detail = 'probe finished';
          } catch (err) {
            detail = `probe failed: ${String(err)}`;
          }
          await sleep(Math.max(0, settings.afterRestartMs - (performance.now() - restartAt)));
        }
        report.check(
          recovery !== undefined && recovery <= settings.recoveryLimitMs,
          `${target.padEnd(17)} killed, down ${secs(settings.downMs)}, recovered ${secs(recovery)} after restart (${detail})`,
        );
      }
    } finally {
      await load.stop();
    }
    await checkDurable(report);
  },
};
