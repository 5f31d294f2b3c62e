/**
 * Replicas scenario `rolling-restart`: a rolling restart, as a deployment does one, under a
 * steady load of votes, submissions and check-ins through the balancer. For each kind of
 * process (gateways, services, workers), its first replica gets SIGTERM, is started again and
 * waits until the balancer has it back in rotation, then the second. Proves: no answer 5xx and
 * no dropped connection reach a client (a stopping replica answers what it has taken, leaves the
 * rotation, and the balancer retries on the other what it could not send; lib/haproxy.ts),
 * every acknowledged write is stored exactly once, and the poll's counters equal MongoDB.
 */
import { checkPollCounts, checkStream } from '../lib/durability.ts';
import { createEvent, importInvites } from '../lib/fixtures.ts';
import { sleep } from '@fieldhouse/testkit';
import { retryUnacknowledged, SteadyLoad, Stream } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { SERVICES, WORKERS, type ServiceName } from '../lib/stack.ts';
import { checkinStream, submissionStream, voteStream } from '../lib/streams.ts';

/** Load after each replica is back, before the next stops, ms. */
const BETWEEN_MS = 1_500;

export const rollingRestart: Scenario = {
  name: 'rolling-restart',
  title: 'rolling restart of every gateway, service and worker under load: no 5xx, nothing lost',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const kinds = [...SERVICES, ...WORKERS];
    const steps = kinds.length * stack.replicas;
    const codesNeeded = Math.ceil(settings.rates.checkins * (10 + steps * 6) * 1.5);
    const event = await createEvent(fx.api, `Rolling ${fx.runId}`);
    const invites = await importInvites(fx.api, event.id, codesNeeded, `roll${fx.runId}`);
    report.info(`${invites.length} invitees to check in; load: ${JSON.stringify(settings.rates)} req/s`);

    const prefix = `fx-${fx.runId}-r`;
    const load = new SteadyLoad(ctx.api, [
      voteStream(fx, ctx.anonymous, settings.rates.votes, prefix),
      submissionStream(fx, settings.rates.submissions, prefix),
      checkinStream(
        event.id,
        invites.map((i) => i.code),
        settings.rates.checkins,
        prefix,
      ),
    ]);
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
          if ((SERVICES as readonly string[]).includes(kind)) {
            await stack.waitReady(name, 60_000);
            await stack.waitThroughBalancer(30_000);
          } else await sleep(2_000);
          report.info(
            `${name.padEnd(19)} stopped in ${secs(stopped)}, ${(SERVICES as readonly string[]).includes(kind as ServiceName) ? 'back in rotation' : 'started'} ${secs(performance.now() - r0)} later`,
          );
          await sleep(BETWEEN_MS);
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
    const stored = () =>
      Promise.all([
        ctx.stores.votes(fx.poll.id),
        ctx.stores.submissions(fx.form.projectId, fx.form.fieldUuid),
        ctx.stores.checkins(event.id),
      ]);
    const before = await stored();
    for (const s of load.streams) report.info(`${s.spec.name}: ${await retryUnacknowledged(s, ctx.api)}`);
    const after = await stored();
    ['votes', 'submissions', 'checkins'].forEach((name, i) =>
      checkStream(report, load.stream(name), after[i]!, before[i]!),
    );
    await checkPollCounts(report, ctx.api, ctx.stores, fx.poll.id, settings.settleMs);
  },
};
