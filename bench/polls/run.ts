/**
 * `npm run bench:polls`: votes/s and results reads/s through the gateway (issue 5, "Benchmark").
 *
 * Starts the polls service and the gateway as child processes on free loopback ports (fresh
 * identity database, fresh MongoDB database, own Redis key prefix and RabbitMQ prefix, gateway
 * rate limits set very high), registers a user who creates one 3-section poll, then in one run:
 *   1. the raw single-document insert rate of the MongoDB-compatible store (insertOne of
 *      vote-sized documents from this process with the same concurrency), the reference for the
 *      ">= 70% of the store" target;
 *   2. `POST /api/polls/{id}/vote` through the gateway, each request a distinct anonymous voter
 *      (its own `voter_fingerprint`);
 *   3. `GET /api/polls/{id}/results` through the gateway;
 *   4. `GET /api/polls/{id}` through the gateway: the poll as the voting page loads it, once per
 *      voter (docs/scaling.md, "Plan 1").
 * Then prints Redis's `total` and MongoDB's count of votes (they must be equal), and
 * PASS/FAIL against the targets (>= 3,000 votes/s with p99 <= 50 ms; >= 5,000 reads/s with p99
 * <= 20 ms). Exit code 1 when the counts differ or a process fails; 0 otherwise.
 *
 * Options: --duration / BENCH_DURATION (seconds per run, default 10), --connections /
 * BENCH_CONNECTIONS (default 50), --only votes|results|poll (one run only, to profile it with
 * BENCH_CPU_PROF=<dir>; the targets are judged on full runs). Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL,
 * MONGO_URL (else a FerretDB is started as `npm test` does).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { cpuMeter, pidListeningOn, printCpuTable } from '../lib/child.ts';
import { load, type LoadSpec } from '../lib/load.ts';
import { startPollsStack } from '../lib/polls-stack.ts';
import { runBench } from '../lib/run.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', short: 'd' },
    connections: { type: 'string', short: 'c' },
    only: { type: 'string' },
  },
});
const RUNS = ['votes', 'results', 'poll'] as const;
if (values.only !== undefined && !(RUNS as readonly string[]).includes(values.only))
  throw new Error('--only takes votes, results or poll');
const ONLY = values.only as (typeof RUNS)[number] | undefined;
/** Whether run `name` is part of this invocation. */
const runs = (name: (typeof RUNS)[number]) => ONLY === undefined || ONLY === name;
const DURATION = Number(values.duration ?? process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(values.connections ?? process.env.BENCH_CONNECTIONS ?? 50);

/** One load run; `rps` counts the answers with `okStatus` only. */
async function run(label: string, spec: Omit<LoadSpec, 'connections' | 'duration'>) {
  const r = await load({ connections: CONNECTIONS, duration: DURATION, ...spec });
  return { label, ...r };
}

/** insertOne of vote-sized documents with CONNECTIONS concurrent writers for `seconds`. */
async function rawInsertRate(mongoUrl: string, dbName: string, seconds: number) {
  const client = await MongoClient.connect(mongoUrl, { maxPoolSize: CONNECTIONS });
  const coll = client.db(dbName).collection('raw_insert_probe');
  await coll.createIndex({ poll_id: 1, voter_key: 1, seq: 1 }, { unique: true });
  let n = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        const now = new Date();
        await coll.insertOne({
          _id: randomBytes(16).toString('hex') as never,
          poll_id: 'p',
          voter_key: `f:${w}:${i}`,
          seq: 1,
          choices: { s_a: 'o_a', s_b: 'o_b', s_c: 'o_c' },
          option_ids: ['o_a', 'o_b', 'o_c'],
          voter_name: null,
          time_spent: i % 60,
          user_id: null,
          hour: `${now.toISOString().slice(0, 13)}:00:00Z`,
          created_at: now.toISOString(),
        });
        n++;
      }
    }),
  );
  await coll.drop().catch(() => undefined);
  await client.close();
  return n / seconds;
}

const fmt = (v: number, d = 1) => v.toFixed(d);

async function main() {
  const { gatewayUrl, polls, gateway, mongoUrl, mongoDb, redisUrl, prefix, suffix, poll } =
    await startPollsStack('polls', {
      title: 'Bench poll',
      sections: [
        { title: 'A', options: [{ label: 'a1' }, { label: 'a2' }, { label: 'a3' }] },
        { title: 'B', options: [{ label: 'b1' }, { label: 'b2' }] },
        { title: 'C', options: [{ label: 'c1' }, { label: 'c2' }, { label: 'c3' }, { label: 'c4' }] },
      ],
    });

  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs; ${CONNECTIONS} connections, ${DURATION} s per run`,
  );
  console.log(`store: ${mongoUrl}`);
  const raw = runs('votes') ? await rawInsertRate(mongoUrl, mongoDb, Math.min(DURATION, 5)) : NaN;
  if (runs('votes')) console.log(`raw single-document insertOne rate of the store: ${fmt(raw)} /s`);

  const meter = cpuMeter({
    gateway: gateway.pid,
    polls: polls.pid,
    store: pidListeningOn(Number(new URL(mongoUrl).port || 27017)),
    redis: pidListeningOn(Number(new URL(redisUrl).port || 6379)),
  });
  const done: Array<{ result: Awaited<ReturnType<typeof run>>; cpu: ReturnType<typeof meter.perRequest> }> =
    [];
  const measured = async (label: string, spec: Parameters<typeof run>[1]) => {
    meter.start();
    const result = await run(label, spec);
    done.push({ result, cpu: meter.perRequest(result.ok + result.other) });
    return result;
  };
  const votes = !runs('votes')
    ? undefined
    : await measured('POST vote (gateway)', {
        url: `${gatewayUrl}/api/polls/${poll.id}/vote`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // every request a new voter
        bodies: (n) =>
          JSON.stringify({
            votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[n % s.options.length]!.id])),
            voter_fingerprint: `bench-voter-${suffix}-${n}`,
            time_spent: n % 90,
          }),
        okStatus: 201,
      });
  const reads = runs('results')
    ? await measured('GET results (gateway)', { url: `${gatewayUrl}/api/polls/${poll.id}/results` })
    : undefined;
  const pollReads = runs('poll')
    ? await measured('GET poll (gateway)', { url: `${gatewayUrl}/api/polls/${poll.id}` })
    : undefined;

  const redis = createClient({ url: redisUrl });
  await redis.connect();
  const redisTotal = Number(await redis.hGet(`${prefix}c:${poll.id}`, 'total'));
  await redis.close();
  const m = await MongoClient.connect(mongoUrl);
  const mongoCount = await m.db(mongoDb).collection('votes').countDocuments({ poll_id: poll.id });
  await m.close();

  console.log('');
  console.log(
    `${'run'.padEnd(24)} ${'ok/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ok'.padStart(8)} ${'other'.padStart(7)} ${'errors'.padStart(7)}`,
  );
  for (const { result: r } of done)
    console.log(
      `${r.label.padEnd(24)} ${fmt(r.rps).padStart(9)} ${fmt(r.p50).padStart(8)} ${fmt(r.p99).padStart(8)} ${String(r.ok).padStart(8)} ${String(r.other).padStart(7)} ${String(r.errors).padStart(7)}`,
    );
  console.log('');
  printCpuTable(done.map((r) => [r.result.label, r.cpu]));
  console.log('');
  console.log(
    `Redis total: ${redisTotal}   MongoDB votes: ${mongoCount}   ${redisTotal === mongoCount ? 'EQUAL' : 'DIFFERENT'}`,
  );
  if (votes) {
    console.log(
      `votes/s vs raw insert rate: ${fmt((votes.rps / raw) * 100)}% (target >= 70% where the store is the bottleneck)`,
    );
    console.log(
      `votes:   ${votes.rps >= 3000 && votes.p99 <= 50 ? 'PASS' : 'FAIL'} (>= 3000/s, p99 <= 50 ms)`,
    );
  }
  if (reads)
    console.log(
      `results: ${reads.rps >= 5000 && reads.p99 <= 20 ? 'PASS' : 'FAIL'} (>= 5000/s, p99 <= 20 ms)`,
    );
  if (pollReads && (pollReads.other || pollReads.errors))
    throw new Error(`poll reads: ${JSON.stringify(pollReads.statusCodes)}, ${pollReads.errors} errors`);
  if (redisTotal !== mongoCount) process.exitCode = 1;
}

await runBench(main);
