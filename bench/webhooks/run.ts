/**
 * `npm run bench:webhooks`: outbound webhooks of area C end to end (issue 19): deliveries/s to
 * a local receiver with 10 subscriptions and 100,000 events, and the latency from the commit of
 * an event to the first attempt of its delivery while the pipeline is healthy.
 *
 * Setup (setup.ts): a fresh events database, 10 events with one `invite.created` subscription
 * each to a loopback receiver process (204 at once), the events HTTP process (outbox relay) and
 * the events worker process (delivery worker), on the run's own RabbitMQ prefix. An event is an
 * invite inserted with SQL: the trigger writes its message into the outbox in the same
 * transaction (produce.ts). Phases, each waiting until every delivery arrived:
 *   warm-up  BENCH_WARMUP invites (default 500), not measured;
 *   paced    BENCH_PACED_EVENTS invites (default 15,000, at most a quarter of BENCH_EVENTS) at
 *            BENCH_RATE/s (default 500, half the throughput target), BENCH_PACED_BATCH rows per
 *            INSERT (default 10): latency commit -> first attempt (target p99 <= 1 s), and
 *            whether the pipeline stayed healthy (never more than 0.2 s of input waiting);
 *   flat-out BENCH_EVENTS invites (default 100,000) in INSERTs of BENCH_BATCH rows (default
 *            1,000) as fast as PostgreSQL takes them: deliveries/s (target >= 1,000/s, over the
 *            phase from its first INSERT to its last first attempt); its latency is queueing.
 * Prints per phase the figures, the CPU time per delivery of each process (cost.ts), and the
 * backlog in each stage during the flat-out phase (sampler.ts); checks that every delivery
 * arrived signed, counts `webhook-id`s received more than once, reads the delivery log; then
 * PASS/FAIL. Exit 0 whether or not the targets are met, 1 on errors. A phase gives up waiting
 * after BENCH_STALL_SECONDS (60) without a delivery. BENCH_SUBSCRIPTIONS (10) sets the number of
 * events and subscriptions. BENCH_CPU_PROF=<dir> writes V8 profiles of the three child processes.
 * Backing services: POSTGRES_URL, AMQP_URL, else the standard local ports.
 *
 * `npm run bench:webhooks -- isolation` runs isolation.ts instead: how fast another owner is
 * delivered while one owner's receivers never answer.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import type { Knex } from '@fieldhouse/db';
import { benchBacking } from '../lib/backing.ts';
import { pidListeningOn, printCpuTable, sleep, type Child } from '../lib/child.ts';
import { percentile } from '../lib/percentile.ts';
import { runBench } from '../lib/run.ts';
import { nowMs, type ReceiverResults } from './common.ts';
import { PhaseCost, printCost, STATS_SETTLE_MS } from './cost.ts';
import { InviteProducer } from './produce.ts';
import { firstAttempts, phaseFigures, printPhase } from './report.ts';
import { BacklogSampler, printBacklog } from './sampler.ts';
import { startWebhookStack } from './setup.ts';

const TARGET_RATE = 1_000;
const TARGET_P99_MS = 1_000;

function settings() {
  const int = (name: string, fallback: number) => {
    const v = Number.parseInt(process.env[name] ?? '', 10);
    return Number.isFinite(v) ? v : fallback;
  };
  const events = int('BENCH_EVENTS', 100_000);
  return {
    events,
    subscriptions: int('BENCH_SUBSCRIPTIONS', 10),
    warmup: int('BENCH_WARMUP', 500),
    paced: int('BENCH_PACED_EVENTS', Math.min(15_000, Math.ceil(events / 4))),
    rate: int('BENCH_RATE', 500),
    pacedBatch: int('BENCH_PACED_BATCH', 10),
    batch: int('BENCH_BATCH', 1_000),
    stallS: int('BENCH_STALL_SECONDS', 60),
  };
}

/**
 * Waits until the receiver got `total` requests, checking the processes stay up; gives up when
 * no new request came for `stallS` seconds (the missing deliveries are reported after).
 */
async function waitForReceived(
  receiverUrl: string,
  total: number,
  children: Child[],
  stallS: number,
): Promise<void> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    for (const c of children) if (!c.running) throw new Error(`${c.name} exited:\n${c.tail()}`);
    const { received } = (await (await fetch(`${receiverUrl}/count`)).json()) as { received: number };
    if (received >= total) return;
    if (received !== last) [last, since] = [received, Date.now()];
    else if (Date.now() - since > stallS * 1000) {
      console.log(`  no delivery for ${stallS} s: ${received} of ${total} received, not waiting longer`);
      return;
    }
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const s = settings();
  const tag = randomBytes(4).toString('hex');
  const backing = benchBacking();
  const stack = await startWebhookStack(tag, s.subscriptions);
  const { db, receiverUrl } = stack;
  const children = [stack.receiver, stack.events, stack.worker];
  const producer = new InviteProducer(db, stack.eventIds);
  const cpu = availableParallelism();
  console.log(
    `webhooks of area C: ${s.subscriptions} subscriptions (one per event), invite.created; Node ${process.version}, ${cpu} CPUs (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`,
  );
  const pids = {
    events: stack.events.pid,
    worker: stack.worker.pid,
    receiver: stack.receiver.pid,
    postgres: pidListeningOn(Number(new URL(backing.postgres).port || 5432)),
    rabbitmq: pidListeningOn(Number(new URL(backing.amqp).port || 5672)),
  };
  let expected = 0;

  console.log(`warm-up: ${s.warmup} events`);
  await producer.flatOut(s.warmup, 50);
  await waitForReceived(receiverUrl, (expected += s.warmup), children, s.stallS);
  await sleep(STATS_SETTLE_MS); // so that the warm-up's database counts are not the paced phase's

  console.log(`paced: ${s.paced} events at ${s.rate}/s, ${s.pacedBatch} per INSERT`);
  const cost = new PhaseCost(pids, db);
  await cost.start();
  const paced = await producer.paced(s.paced, s.rate, s.pacedBatch);
  await waitForReceived(receiverUrl, (expected += s.paced), children, s.stallS);
  const pacedCost = await cost.stop(s.paced);

  console.log(`flat-out: ${s.events} events, ${s.batch} per INSERT`);
  const sampler = new BacklogSampler(db, stack.probe, receiverUrl);
  await cost.start();
  sampler.start(nowMs());
  const flat = await producer.flatOut(s.events, s.batch);
  await waitForReceived(receiverUrl, (expected += s.events), children, s.stallS);
  const samples = await sampler.stop();
  const flatCost = await cost.stop(s.events); // waits 11 s: a repeated attempt would arrive meanwhile

  const results = (await (await fetch(`${receiverUrl}/results`)).json()) as ReceiverResults;
  const { first, duplicates } = firstAttempts(results);
  const pacedFig = phaseFigures(`paced phase (latency, ${s.rate}/s)`, paced, results, first, producer);
  const flatFig = phaseFigures('flat-out phase (throughput)', flat, results, first, producer);
  const log = await deliveryLog(db);

  console.log('');
  printPhase(pacedFig, paced);
  printPhase(flatFig, flat);
  console.log('backlog during the flat-out phase (outbox rows, ready messages, pending deliveries):');
  printBacklog(samples);
  console.log('CPU per delivery (a "request" below; `self` is the bench: producer and sampler):');
  printCpuTable([
    ['paced', pacedCost.cpu],
    ['flat-out', flatCost.cpu],
  ]);
  printCost('paced phase', pacedCost, cpu);
  printCost('flat-out phase', flatCost, cpu);
  console.log(
    `requests received: ${results.ids.length}; distinct webhook-ids: ${first.length} of ${expected} events; ` +
      `repeated: ${duplicates}; signatures checked ${results.verified + results.badSignatures}, bad ${results.badSignatures}; bad bodies ${results.badBodies}`,
  );
  console.log(
    `delivery log: ${JSON.stringify(log.statuses)}; attempts ${log.attempts}; outbox left ${log.outbox}; ` +
      `row updates per delivery ${(log.updates / expected).toFixed(2)} (2 = each taken and finished once, more = deferred or re-queued)`,
  );

  const rateOk = flatFig.rate >= TARGET_RATE;
  const p99 = percentile(pacedFig.latencies, 99);
  const p99Ok = p99 <= TARGET_P99_MS;
  const complete =
    first.length === expected &&
    log.statuses.succeeded === expected &&
    results.badSignatures === 0 &&
    results.badBodies === 0;
  // Healthy: never more than 0.2 s of input waiting (the pipeline's own latency here is 30 to 60 ms).
  const healthyBacklog = Math.round(s.rate * 0.2);
  const healthy = pacedFig.maxBacklog <= healthyBacklog;
  const line = (label: string, verdict: string) => console.log(`${label.padEnd(56)} ${verdict}`);
  line(
    `paced phase healthy (backlog never above ${healthyBacklog} events):`,
    healthy ? 'yes' : `no (${pacedFig.maxBacklog}): its latency includes queueing`,
  );
  line('exactly once (no webhook-id received twice):', duplicates ? `no (${duplicates} repeated)` : 'yes');
  line('every delivery arrived, signed, logged as succeeded:', complete ? 'PASS' : 'FAIL');
  line(
    `deliveries/s >= ${TARGET_RATE} (flat-out phase, overall):`,
    `${rateOk ? 'PASS' : 'FAIL'} (${flatFig.rate.toFixed(0)}/s)`,
  );
  line(
    `p99 commit -> first attempt <= ${TARGET_P99_MS} ms (paced phase):`,
    `${p99Ok ? 'PASS' : 'FAIL'} (${p99.toFixed(0)} ms)`,
  );
  console.log(`overall: ${rateOk && p99Ok && complete ? 'PASS' : 'FAIL'}`);
}

/** The delivery log after the run: deliveries by status, attempts, outbox rows left, row updates of deliveries. */
async function deliveryLog(db: Knex) {
  const rows = (await db('webhook_deliveries')
    .select('status')
    .count({ n: '*' })
    .groupBy('status')) as Array<{ status: string; n: number }>;
  const [attempts] = (await db('webhook_attempts').count({ n: '*' })) as Array<{ n: number }>;
  const [outbox] = (await db('outbox').count({ n: '*' })) as Array<{ n: number }>;
  const { rows: stat } = (await db.raw(
    `SELECT n_tup_upd AS n FROM pg_stat_user_tables WHERE relname = 'webhook_deliveries'`,
  )) as { rows: Array<{ n: number }> };
  return {
    statuses: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>,
    attempts: Number(attempts!.n),
    outbox: Number(outbox!.n),
    updates: Number(stat[0]?.n ?? NaN),
  };
}

// `npm run bench:webhooks -- isolation`: another owner's delivery while one owner's receivers hang.
if (process.argv[2] === 'isolation') await import('./isolation.ts');
else await runBench(main);
