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
 *   5. section kinds (issue 37, docs/polls.md "Section kinds"): votes on a poll of three
 *      `multiple` sections and on one of three `ranked` sections (the same option counts as the
 *      single-choice poll), in three rounds alternating with single-choice votes so that the
 *      machine's load weighs on all three alike; each kind must reach >= 90 % of the
 *      single-choice votes/s of those rounds;
 *   6. a ranked poll of one 5-option section filled with 100,000 ballots cast through the
 *      gateway (random rankings of 1 to 5 options, each a new voter; timed), then its results
 *      read while ranked votes arrive on it: p99 <= 50 ms.
 *   7. participants shown to voters (docs/polls.md, "Participants shown to voters"): a poll with
 *      `show_participant_names` filled with 20,000 named votes (--participants), then its shared
 *      list (`GET .../participants?per_page=20`, signed out) read while votes arrive on it:
 *      p99 <= 100 ms (a read costs the gateway, the poll and the counted total from Redis, and
 *      a page of the list kept in memory: it does not wait for the store), and the loads of the
 *      list from the store during the run (full and recent, from the polls service's /metrics)
 *      and the first read's time (the one load of every vote) printed.
 * Then prints Redis's `total` and MongoDB's count of votes of every poll (they must be equal),
 * and PASS/FAIL against the targets (>= 3,000 votes/s with p99 <= 50 ms; >= 5,000 reads/s with
 * p99 <= 20 ms; the kinds' targets above). Exit code 1 when the counts differ or a process
 * fails; 0 otherwise.
 *
 * Options: --duration / BENCH_DURATION (seconds per run, default 10), --connections /
 * BENCH_CONNECTIONS (default 50), --only votes|results|poll|kinds|ranked (one run only, to profile it with
 * BENCH_CPU_PROF=<dir>; the targets are judged on full runs; `ranked` is step 6 alone), --ballots /
 * BENCH_RANKED_BALLOTS (ballots cast before step 6's reads, default 100,000: a short run of step 6
 * takes fewer, the read costs the same once every distinct ranking has appeared, 325 here),
 * --participants / BENCH_PARTICIPANTS (named votes cast before step 7's reads, default 20,000). Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL,
 * MONGO_URL (else a FerretDB is started as `npm test` does).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { cpuMeter, pidListeningOn, printCpuTable } from '../lib/child.ts';
import { load, type LoadSpec } from '../lib/load.ts';
import { startPollsStack, type BenchPoll } from '../lib/polls-stack.ts';
import { runBench } from '../lib/run.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', short: 'd' },
    connections: { type: 'string', short: 'c' },
    only: { type: 'string' },
    ballots: { type: 'string' },
    participants: { type: 'string' },
  },
});
const RUNS = ['votes', 'results', 'poll', 'kinds', 'ranked', 'participants'] as const;
if (values.only !== undefined && !(RUNS as readonly string[]).includes(values.only))
  throw new Error('--only takes votes, results, poll, kinds, ranked or participants');
const ONLY = values.only as (typeof RUNS)[number] | undefined;
/** Whether run `name` is part of this invocation. */
const runs = (name: (typeof RUNS)[number]) => ONLY === undefined || ONLY === name;
const DURATION = Number(values.duration ?? process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(values.connections ?? process.env.BENCH_CONNECTIONS ?? 50);
const BALLOTS = Number(values.ballots ?? process.env.BENCH_RANKED_BALLOTS ?? 100_000);
const PARTICIPANTS = Number(values.participants ?? process.env.BENCH_PARTICIPANTS ?? 20_000);

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

/** Creates a poll through the gateway as the bench's user. */
async function createPoll(gatewayUrl: string, token: string, body: object): Promise<BenchPoll> {
  const res = await fetch(`${gatewayUrl}/api/polls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`poll creation failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: BenchPoll }).data;
}

/** The bench poll's three sections (3, 2 and 4 options) as sections of `kind`. */
const sectionsOf = (kind: 'single' | 'multiple' | 'ranked') =>
  [3, 2, 4].map((n, i) => ({
    title: `Section ${i + 1}`,
    ...(kind === 'single' ? {} : { kind }),
    ...(kind === 'multiple' ? { min_choices: 1, max_choices: 2 } : {}),
    options: Array.from({ length: n }, (_, j) => ({ label: `option ${j + 1}` })),
  }));

/** A pseudo-random ranking of 1 to all of `ids` for ballot n (deterministic: the same n, the same ranking). */
function rankingFor(ids: readonly string[], n: number): string[] {
  let x = (n * 2654435761) >>> 0;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, 1 + Math.floor(next() * ids.length));
}

/** The vote body of voter n for a poll whose sections are all of `kind`. */
function ballotFor(poll: BenchPoll, kind: 'single' | 'multiple' | 'ranked', n: number, voter: string) {
  const base = { voter_fingerprint: voter, time_spent: n % 90 };
  if (kind === 'single')
    return {
      ...base,
      votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[n % s.options.length]!.id])),
    };
  const ids = (s: BenchPoll['sections'][number]) => s.options.map((o) => o.id);
  return {
    ...base,
    answers: Object.fromEntries(
      poll.sections.map((s) => [
        s.id,
        kind === 'ranked' ? rankingFor(ids(s), n) : rankingFor(ids(s), n).slice(0, 2).sort(),
      ]),
    ),
  };
}

/**
 * Casts votes of `body(n)` on `url` through the gateway, CONNECTIONS at a time, until `count` are
 * counted; resolves with how many were counted, how many bodies were sent, and the seconds taken.
 */
async function castUntil(url: string, count: number, body: (n: number) => object, from = 0) {
  const started = Date.now();
  let cast = 0;
  let next = from;
  while (cast < count) {
    const first = next;
    const r = await load({
      connections: CONNECTIONS,
      duration: Math.max(3, DURATION),
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: (n) => JSON.stringify(body(first + n)),
      okStatus: 201,
    });
    if (r.ok === 0) throw new Error(`no vote counted: ${JSON.stringify(r.statusCodes)}`);
    cast += r.ok;
    next += r.sent;
  }
  return { cast, next, seconds: (Date.now() - started) / 1000 };
}

/** `polls_participants_loads_total` by kind, read from the polls service's /metrics. */
async function participantLoads(metricsUrl: string): Promise<{ full: number; recent: number }> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const of = (kind: string) =>
    Number(
      new RegExp(`^polls_participants_loads_total\\{kind="${kind}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  return { full: of('full'), recent: of('recent') };
}

async function main() {
  const {
    gatewayUrl,
    pollsMetricsUrl,
    polls,
    gateway,
    mongoUrl,
    mongoDb,
    redisUrl,
    prefix,
    suffix,
    poll,
    token,
  } = await startPollsStack('polls', {
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

  // 5. Section kinds: alternating rounds of single, multiple and ranked votes.
  const checked: BenchPoll[] = [poll];
  const kindRuns: Record<'single' | 'multiple' | 'ranked', { ok: number; seconds: number; p99: number }> = {
    single: { ok: 0, seconds: 0, p99: 0 },
    multiple: { ok: 0, seconds: 0, p99: 0 },
    ranked: { ok: 0, seconds: 0, p99: 0 },
  };
  let big:
    | {
        poll: BenchPoll;
        castSeconds: number;
        cast: number;
        reads: Awaited<ReturnType<typeof run>>;
        votes: Awaited<ReturnType<typeof run>>;
      }
    | undefined;
  if (runs('kinds') && ONLY !== 'ranked') {
    const kindPolls = {
      single: await createPoll(gatewayUrl, token, { title: 'Bench single', sections: sectionsOf('single') }),
      multiple: await createPoll(gatewayUrl, token, {
        title: 'Bench multiple',
        sections: sectionsOf('multiple'),
      }),
      ranked: await createPoll(gatewayUrl, token, { title: 'Bench ranked', sections: sectionsOf('ranked') }),
    };
    checked.push(...Object.values(kindPolls));
    const seconds = Math.max(3, Math.round(DURATION / 2));
    for (let round = 0; round < 3; round++)
      for (const kind of ['single', 'multiple', 'ranked'] as const) {
        const target = kindPolls[kind];
        const r = await load({
          connections: CONNECTIONS,
          duration: seconds,
          url: `${gatewayUrl}/api/polls/${target.id}/vote`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          bodies: (n) => JSON.stringify(ballotFor(target, kind, n, `bench-${kind}-${suffix}-${round}-${n}`)),
          okStatus: 201,
        });
        kindRuns[kind].ok += r.ok;
        kindRuns[kind].seconds += seconds;
        kindRuns[kind].p99 = Math.max(kindRuns[kind].p99, r.p99);
        if (r.other || r.errors)
          console.log(`${kind} votes: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
      }
  }
  if (runs('kinds') || ONLY === 'ranked') {
    // 6. 100,000 ranked ballots (--ballots), results read while votes arrive.
    const bigPoll = await createPoll(gatewayUrl, token, {
      title: 'Bench ranked 100k',
      sections: [
        { title: 'Best', kind: 'ranked', options: ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label })) },
      ],
    });
    checked.push(bigPoll);
    // Cast through the gateway as voters do, until 100,000 are counted: the counters are built
    // vote by vote, as in production. (Written straight to the store and recounted, 100,000
    // ballots made FerretDB 1.24 hold the whole scan in memory, 3.5 GB, until its supervisor
    // killed it as unresponsive: see docs/benchmarks.md.)
    const {
      cast,
      next,
      seconds: castSeconds,
    } = await castUntil(`${gatewayUrl}/api/polls/${bigPoll.id}/vote`, BALLOTS, (n) =>
      ballotFor(bigPoll, 'ranked', n, `bench-big-${suffix}-${n}`),
    );
    const [reads, votes] = await Promise.all([
      run('GET ranked results 100k', { url: `${gatewayUrl}/api/polls/${bigPoll.id}/results` }),
      load({
        connections: Math.max(1, Math.round(CONNECTIONS / 5)),
        duration: DURATION,
        url: `${gatewayUrl}/api/polls/${bigPoll.id}/vote`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        bodies: (n) =>
          JSON.stringify(ballotFor(bigPoll, 'ranked', next + n, `bench-big-${suffix}-${next + n}`)),
        okStatus: 201,
      }),
    ]);
    big = { poll: bigPoll, castSeconds, cast, reads, votes: { label: 'POST ranked vote (100k)', ...votes } };
  }
  let shared:
    | {
        cast: number;
        castSeconds: number;
        reads: Awaited<ReturnType<typeof run>>;
        votes: Awaited<ReturnType<typeof load>>;
        loads: { full: number; recent: number };
        firstMs: number;
      }
    | undefined;
  if (runs('participants')) {
    // 7. The shared participants list of a poll of 20,000 named votes, read while votes arrive.
    const namesPoll = await createPoll(gatewayUrl, token, {
      title: 'Bench participants',
      sections: sectionsOf('single'),
      settings: { show_participant_names: true },
    });
    checked.push(namesPoll);
    const voteUrl = `${gatewayUrl}/api/polls/${namesPoll.id}/vote`;
    const named = (n: number) => ({
      ...ballotFor(namesPoll, 'single', n, `bench-names-${suffix}-${n}`),
      voter_name: `Voter ${n}`,
    });
    const filled = await castUntil(voteUrl, PARTICIPANTS, named);
    // The first read of a poll in a process loads every vote (FerretDB sorts them in memory):
    // timed apart; the run measures the reads that follow, as every reader but the first.
    const firstStarted = Date.now();
    const first = await fetch(`${gatewayUrl}/api/polls/${namesPoll.id}/participants?per_page=20`);
    if (first.status !== 200) throw new Error(`participants: ${first.status} ${await first.text()}`);
    const firstMs = Date.now() - firstStarted;
    const before = await participantLoads(pollsMetricsUrl);
    const [reads, votes] = await Promise.all([
      run('GET participants 20k', {
        url: `${gatewayUrl}/api/polls/${namesPoll.id}/participants?per_page=20`,
      }),
      load({
        connections: Math.max(1, Math.round(CONNECTIONS / 5)),
        duration: DURATION,
        url: voteUrl,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        bodies: (n) => JSON.stringify(named(filled.next + n)),
        okStatus: 201,
      }),
    ]);
    const after = await participantLoads(pollsMetricsUrl);
    shared = {
      cast: filled.cast,
      castSeconds: filled.seconds,
      reads,
      votes,
      loads: { full: after.full - before.full, recent: after.recent - before.recent },
      firstMs,
    };
  }

  const redis = createClient({ url: redisUrl });
  await redis.connect();
  const m = await MongoClient.connect(mongoUrl);
  const counted = await Promise.all(
    checked.map(async (p) => ({
      redis: Number(await redis.hGet(`${prefix}c:${p.id}`, 'total')),
      mongo: await m.db(mongoDb).collection('votes').countDocuments({ poll_id: p.id }),
    })),
  );
  await redis.close();
  await m.close();
  const redisTotal = counted.reduce((a, c) => a + c.redis, 0);
  const mongoCount = counted.reduce((a, c) => a + c.mongo, 0);
  const allEqual = counted.every((c) => c.redis === c.mongo);

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
    `Redis total: ${redisTotal}   MongoDB votes: ${mongoCount}   ${allEqual ? 'EQUAL' : 'DIFFERENT'} (${counted.length} poll${counted.length > 1 ? 's' : ''}, each compared)`,
  );
  if (runs('kinds') && ONLY !== 'ranked') {
    const rate = (k: keyof typeof kindRuns) => kindRuns[k].ok / kindRuns[k].seconds;
    console.log('');
    console.log('section kinds, 3 alternating rounds each (docs/polls.md, "Section kinds"):');
    for (const k of ['single', 'multiple', 'ranked'] as const)
      console.log(
        `  ${k.padEnd(9)} ${fmt(rate(k)).padStart(9)} votes/s   worst-round p99 ${fmt(kindRuns[k].p99)} ms   ${k === 'single' ? '' : `${fmt((rate(k) / rate('single')) * 100)}% of single`}`,
      );
    for (const k of ['multiple', 'ranked'] as const)
      console.log(
        `${k} votes: ${rate(k) >= 0.9 * rate('single') ? 'PASS' : 'FAIL'} (>= 90% of single-choice votes/s)`,
      );
  }
  if (big) {
    console.log(
      `${big.cast} ranked ballots cast through the gateway in ${fmt(big.castSeconds)} s; results ${fmt(big.reads.rps)}/s p50 ${fmt(big.reads.p50)} ms p99 ${fmt(big.reads.p99)} ms while ${fmt(big.votes.rps)} votes/s arrived (p99 ${fmt(big.votes.p99)} ms)`,
    );
    console.log(
      `ranked results (${big.cast} ballots): ${big.reads.p99 <= 50 && big.reads.ok > 0 ? 'PASS' : 'FAIL'} (p99 <= 50 ms while votes arrive)`,
    );
  }
  if (shared) {
    console.log(
      `${shared.cast} named votes cast through the gateway in ${fmt(shared.castSeconds)} s; participants list ${fmt(shared.reads.rps)}/s p50 ${fmt(shared.reads.p50)} ms p99 ${fmt(shared.reads.p99)} ms while ${fmt(shared.votes.rps)} votes/s arrived (p99 ${fmt(shared.votes.p99)} ms); loads from the store: ${shared.loads.full} full, ${shared.loads.recent} recent; the first read (every vote loaded) ${shared.firstMs} ms; answers ${JSON.stringify(shared.reads.statusCodes)}, ${shared.reads.errors} errors`,
    );
    console.log(
      `participants list (${shared.cast} votes): ${shared.reads.p99 <= 100 && shared.reads.ok > 0 && !shared.reads.other ? 'PASS' : 'FAIL'} (p99 <= 100 ms while votes arrive)`,
    );
  }
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
  if (!allEqual) process.exitCode = 1;
}

await runBench(main);
