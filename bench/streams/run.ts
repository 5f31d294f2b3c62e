/**
 * `npm run bench:streams`: 10,000 live-results streams (SSE) through the gateway while votes and
 * results reads go on (issue #14, defect 1).
 *
 * Starts the polls service and the gateway as child processes on free loopback ports (fresh
 * identity and MongoDB databases, own Redis key prefix; file-descriptor limits of the children
 * raised with `prlimit`, which needs root or CAP_SYS_RESOURCE), registers a user who creates a
 * poll, then:
 *   1. opens STREAMS streams to `GET /api/polls/{id}/results/stream` from two worker threads,
 *      spread over ADDRESSES loopback source addresses (127.0.0.2, .3, ...: the gateway's
 *      per-address cap is 500, so 10,000 streams need at least 20);
 *   2. for DURATION seconds sends votes (VOTE_RATE/s, each a new anonymous voter) and results
 *      reads (READ_RATE/s) through the gateway, measuring their latency;
 *   3. checks that every stream is still open and that each one's last event shows the final
 *      `total_votes` (Redis's count, equal to MongoDB's): every stream got every update.
 * Prints the figures and PASS/FAIL against the targets (reads and votes p99 <= 100 ms, every
 * stream up to date). Exit code 1 on a failed target or process.
 *
 * Options (environment): BENCH_STREAMS (10000), BENCH_ADDRESSES (40), BENCH_DURATION (20 s),
 * BENCH_VOTE_RATE (20/s), BENCH_READ_RATE (50/s). Backing services as for bench:polls.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { raiseFdLimit } from '../../scripts/lib/limits.ts';
import { cpuMeter, sleep } from '../lib/child.ts';
import { load } from '../lib/load.ts';
import { startPollsStack } from '../lib/polls-stack.ts';
import { onCleanup, runBench } from '../lib/run.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 40);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const VOTE_RATE = Number(process.env.BENCH_VOTE_RATE ?? 20);
const READ_RATE = Number(process.env.BENCH_READ_RATE ?? 50);
const TARGET_P99_MS = 100;

interface Report {
  open: number;
  statuses: Record<string, number>;
  failures: number;
  failureSamples: string[];
  minEvents: number;
  maxEvents: number;
  minTotal: number;
  maxTotal: number;
}

/** Raises a process's open-file limit (each stream is a socket), or says it could not. */
function raiseFileLimit(pid: number | undefined, name: string): void {
  if (pid && !raiseFdLimit(200_000, pid)) console.warn(`could not raise the open-file limit of ${name}`);
}

/** Opens `count` streams in a worker thread; resolves with a handle once all are open. */
function viewers(url: string, count: number, firstAddress: number, addresses: number) {
  const worker = new Worker(new URL('./viewers.ts', import.meta.url), {
    workerData: { url, count, firstAddress, addresses },
    execArgv: ['--conditions=source'],
  });
  const opened = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { type: string }) => m.type === 'opened' && resolve());
  });
  return {
    opened,
    report: () =>
      new Promise<Report>((resolve) => {
        const on = (m: { type: string } & Report) => {
          if (m.type !== 'report') return;
          worker.off('message', on);
          resolve(m);
        };
        worker.on('message', on);
        worker.postMessage({ type: 'report' });
      }),
    close: async () => {
      worker.postMessage({ type: 'close' });
      await new Promise((r) => worker.once('exit', r));
    },
  };
}

const merge = (rs: Report[]): Report => ({
  open: rs.reduce((n, r) => n + r.open, 0),
  statuses: rs.reduce<Record<string, number>>((acc, r) => {
    for (const [k, v] of Object.entries(r.statuses)) acc[k] = (acc[k] ?? 0) + v;
    return acc;
  }, {}),
  failures: rs.reduce((n, r) => n + r.failures, 0),
  failureSamples: rs.flatMap((r) => r.failureSamples),
  minEvents: Math.min(...rs.map((r) => r.minEvents)),
  maxEvents: Math.max(...rs.map((r) => r.maxEvents)),
  minTotal: Math.min(...rs.map((r) => r.minTotal)),
  maxTotal: Math.max(...rs.map((r) => r.maxTotal)),
});

async function main() {
  const { gatewayUrl, polls, gateway, mongoUrl, mongoDb, redisUrl, prefix, suffix, poll } =
    await startPollsStack(
      'streams',
      {
        title: 'Live audience',
        sections: [{ title: 'Pick one', options: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] }],
        settings: { max_votes_per_voter: 1 },
      },
      (children) => {
        raiseFileLimit(children.polls.pid, 'polls');
        raiseFileLimit(children.gateway.pid, 'gateway');
        raiseFileLimit(process.pid, 'the bench');
      },
    );
  const section = poll.sections[0]!;

  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs; ${STREAMS} streams from ${ADDRESSES} addresses`,
  );
  const streamUrl = `${gatewayUrl}/api/polls/${poll.id}/results/stream`;
  const t0 = Date.now();
  const half = Math.floor(STREAMS / 2);
  const groups = [
    viewers(streamUrl, half, 2, Math.max(1, Math.floor(ADDRESSES / 2))),
    viewers(
      streamUrl,
      STREAMS - half,
      2 + Math.floor(ADDRESSES / 2),
      Math.max(1, ADDRESSES - Math.floor(ADDRESSES / 2)),
    ),
  ];
  onCleanup('close the streams', () => Promise.all(groups.map((g) => g.close())));
  await Promise.all(groups.map((g) => g.opened));
  const openedMs = Date.now() - t0;
  const atOpen = merge(await Promise.all(groups.map((g) => g.report())));
  console.log(
    `opened ${atOpen.open} streams in ${(openedMs / 1000).toFixed(1)} s (statuses ${JSON.stringify(atOpen.statuses)}, connection errors ${atOpen.failures})`,
  );

  let voter = 0;
  // CPU of each process during the load (perRequest(1000 * seconds) gives ms per s: per mille of a core).
  const meter = cpuMeter({ gateway: gateway.pid, polls: polls.pid });
  meter.start();
  const loadStart = Date.now();
  const [votes, reads] = await Promise.all([
    load({
      url: `${gatewayUrl}/api/polls/${poll.id}/vote`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: () =>
        JSON.stringify({
          votes: { [section.id]: section.options[voter % 3]!.id },
          voter_fingerprint: `bench-${suffix}-${voter++}`,
        }),
      okStatus: 201,
      connections: 10,
      duration: DURATION,
      rate: VOTE_RATE,
    }),
    load({
      url: `${gatewayUrl}/api/polls/${poll.id}/results`,
      connections: 10,
      duration: DURATION,
      rate: READ_RATE,
    }),
  ]);

  const cpu = meter.perRequest(Date.now() - loadStart);
  await sleep(2_000); // the last votes' answers and pushes
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  const total = Number(await redis.hGet(`${prefix}c:${poll.id}`, 'total'));
  await redis.close();
  const m = await MongoClient.connect(mongoUrl);
  const inMongo = await m.db(mongoDb).collection('votes').countDocuments({ poll_id: poll.id });
  await m.close();
  let final = merge(await Promise.all(groups.map((g) => g.report())));
  const deadline = Date.now() + 15_000;
  while (final.minTotal !== total && Date.now() < deadline) {
    await sleep(500);
    final = merge(await Promise.all(groups.map((g) => g.report())));
  }

  const fmt = (v: number) => v.toFixed(1);
  console.log('');
  console.log(
    `votes   ${fmt(votes.rps)}/s  p50 ${fmt(votes.p50)} ms  p99 ${fmt(votes.p99)} ms  ok ${votes.ok}  other ${votes.other}  errors ${votes.errors}`,
  );
  console.log(
    `reads   ${fmt(reads.rps)}/s  p50 ${fmt(reads.p50)} ms  p99 ${fmt(reads.p99)} ms  ok ${reads.ok}  other ${reads.other}  errors ${reads.errors}`,
  );
  console.log(
    `streams open ${final.open}/${STREAMS}; results events per stream ${final.minEvents}..${final.maxEvents}; last total_votes per stream ${final.minTotal}..${final.maxTotal}`,
  );
  console.log(`counts: Redis total ${total}, MongoDB ${inMongo}`);
  console.log(
    `CPU during the load (share of one core): ${Object.entries(cpu)
      .map(
        ([k, v]: [string, number]) =>
          `${k === 'self' ? 'bench (streams + load)' : k} ${(v / 10).toFixed(0)}%`,
      )
      .join(', ')}`,
  );
  const checks: Array<[string, boolean]> = [
    [`all ${STREAMS} streams open`, final.open === STREAMS],
    [
      'every stream shows the final count (got every update)',
      final.minTotal === total && final.maxTotal === total,
    ],
    ['Redis count = MongoDB count', total === inMongo],
    [
      `votes p99 <= ${TARGET_P99_MS} ms (no failures)`,
      votes.p99 <= TARGET_P99_MS && votes.other + votes.errors === 0,
    ],
    [
      `reads p99 <= ${TARGET_P99_MS} ms (no failures)`,
      reads.p99 <= TARGET_P99_MS && reads.other + reads.errors === 0,
    ],
  ];
  for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

await runBench(main);
