/**
 * Replicas scenario `rolling-restart`: a rolling restart, as a deployment does one, under a
 * steady load of votes, submissions and check-ins through the balancer. For each kind of
 * process (gateways, services, workers), its first replica gets SIGTERM, is started again and
 * waits until the balancer has it back in rotation (a worker: until it logs that its consumers are
 * declared), then the second. Proves: no answer 5xx and
 * no dropped connection reach a client (a stopping replica answers what it has taken, leaves the
 * rotation, and the balancer retries on the other what it could not send; lib/haproxy.ts),
 * each kind of worker still does its work once both its replicas were restarted (lib/probes.ts),
 * every acknowledged write is stored exactly once, and the poll's counters equal MongoDB.
 */
import { sleep } from '@fieldhouse/testkit';
import { Stream } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { probeWorker } from '../lib/probes.ts';
import { SERVICES, WORKERS, type WorkerName } from '../lib/stack.ts';
import { steadyWriteLoad } from '../lib/streams.ts';

/** Load after each replica is back, before the next stops, ms. */
const BETWEEN_MS = 1_500;

export const rollingRestart: Scenario = {
  name: 'rolling-restart',
  title: 'rolling restart of every gateway, service and worker under load: no 5xx, nothing lost',
  async run(ctx, report) {
    const { stack } = ctx;
    const kinds = [...SERVICES, ...WORKERS];
    const steps = kinds.length * stack.replicas;
    const { load, checkDurable } = await steadyWriteLoad(ctx, report, {
      name: 'Rolling',
      tag: 'r',
      seconds: 10 + steps * 6,
    });
    const t0 = performance.now();
    load.start();
    try {
      await sleep(3_000);
      for (const kind of kinds) {
        for (const name of stack.namesOf(kind)) {
          const s0 = performance.now();
          await stack.kill(name, 'SIGTERM');
          const stopped = performance.now() - s0;
          stack.restart(name);
          const r0 = performance.now();
          const serves = (SERVICES as readonly string[]).includes(kind);
          if (serves) {
            await stack.waitReady(name, 60_000);
            await stack.waitThroughBalancer(30_000);
          } else await stack.waitWorkerStarted(name, 60_000); // its consumers are declared
          report.info(
            `${name.padEnd(19)} stopped in ${secs(stopped)}, ` +
              (serves
                ? `back in rotation ${secs(performance.now() - r0)} after its start`
                : `consuming ${secs(performance.now() - r0)} after its start`),
          );
          await sleep(BETWEEN_MS);
        }
        if (!(SERVICES as readonly string[]).includes(kind)) {
          // Both replicas restarted: the work only this kind of worker does still gets done.
          const p0 = performance.now();
          const probe = await probeWorker(ctx, kind as WorkerName, 30_000).then(
            () => 'finished',
            (err: unknown) => `failed: ${String(err)}`,
          );
          report.check(
            probe === 'finished',
            `${kind} after its rolling restart: probe ${probe} in ${secs(performance.now() - p0)}`,
          );
        }
      }
      await sleep(2_000);
    } finally {
      await load.stop();
    }
    const firsts = load.streams.flatMap((s) => s.attempts.filter((a) => !a.retry));
    const bad = firsts.filter((a) => a.status >= 500 || a.status === 0);
    report.check(
      bad.length === 0,
      `${firsts.length} requests over ${secs(performance.now() - t0)} of rolling restart: ` +
        load.streams.map((s) => `${s.spec.name} ${Stream.statusSummary(s.attempts)}`).join('; ') +
        (bad.length
          ? `; 5xx or no answer e.g. ${bad
              .slice(0, 3)
              .map((a) => `${a.status} ${a.code ?? a.error ?? ''}`)
              .join(', ')}`
          : ''),
    );
    await checkDurable(report);
  },
};
