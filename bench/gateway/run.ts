/**
 * `npm run bench:gateway`: what the gateway costs on top of a service (issue: "bench/gateway").
 *
 * Starts the collection service and the gateway as child processes (each on its own event loop,
 * apart from autocannon's) on free loopback ports with fresh databases, registers a user, warms
 * up, then measures with autocannon, with the same connections and duration:
 *   (a) `GET /api/v1/_whoami` on the collection service, with a valid internal JWT;
 *   (b) the same through the gateway with the user's bearer token (token lookup, per-IP and
 *       per-user rate limits in Redis, internal JWT signing, proxy).
 * Prints req/s, p50 and p99 of both, the throughput ratio b/a and the p50 difference, and
 * PASS/FAIL against the targets (b >= 60% of a's req/s, p50 at most 2 ms more). Then stops the
 * children and drops the databases. Exit code 0 whether or not the targets are met; 1 on
 * errors (a process that does not start, any response that is not 200, a connection error).
 *
 * Options (flags win over variables): --duration / BENCH_DURATION (seconds per run, default 15,
 * at most 50: the direct run reuses one internal JWT valid 60 s), --connections /
 * BENCH_CONNECTIONS (default 50), --warmup / BENCH_WARMUP (seconds per target, default 3).
 * Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL, else the standard local ports.
 * BENCH_CPU_PROF=<dir> writes V8 CPU profiles of the gateway and the service there.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import amqp from 'amqplib';
import { Exchanges } from '@fieldhouse/contracts';
import { dropDatabase } from '@fieldhouse/db';
import { signInternalToken } from '../../gateway/src/proxy/internal-token.ts';
import { loadSigningKey } from '../../gateway/src/proxy/signing-key.ts';
import {
  Child,
  cpuProfileArgs,
  freePort,
  gatewayChild,
  registerUser,
  SERVER_ENV,
  sleep,
  waitReady,
} from '../lib/child.ts';
import { autocannon, type AutocannonInstance } from '../lib/autocannon.ts';

// ---------------------------------------------------------------------------------------------
// Settings

const PATH = '/api/v1/_whoami';
const ISSUER = 'fieldhouse-gateway';
const TARGET_RATIO = 0.6;
const TARGET_P50_DELTA_MS = 2;
/** The direct run reuses one internal JWT: the gateway's ttl limit is 60 s. */
const JWT_TTL_SECONDS = 60;
const MAX_DURATION = 50;

function settings() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', short: 'd' },
      connections: { type: 'string', short: 'c' },
      warmup: { type: 'string', short: 'w' },
      rate: { type: 'string', short: 'r' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run bench:gateway -- [--duration s] [--connections n] [--warmup s] [--rate req/s]\n' +
        '  (or BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_RATE; defaults 15, 50, 3, 0 = unlimited)',
    );
    process.exit(0);
  }
  const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  return {
    duration: int('duration', values.duration ?? process.env.BENCH_DURATION, 15, 1, MAX_DURATION),
    connections: int('connections', values.connections ?? process.env.BENCH_CONNECTIONS, 50, 1, 1000),
    warmup: int('warmup', values.warmup ?? process.env.BENCH_WARMUP, 3, 0, MAX_DURATION),
    /** Requests/s over all connections (0: as fast as they answer). */
    rate: int('rate', values.rate ?? process.env.BENCH_RATE, 0, 0, 1_000_000),
  };
}

/** Backing services: the variables when set, else the standard local addresses. */
const backing = {
  postgres: process.env.POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  amqp: process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
};

/** `base` pointing at database `name`. */
function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The Redis URL for the gateway: a separate logical database (15, or BENCH_REDIS_DB) when the
 * URL names none (its keys also carry the run's own prefix).
 */
function benchRedisUrl(base: string): string {
  const url = new URL(base);
  if (url.pathname === '' || url.pathname === '/') url.pathname = `/${process.env.BENCH_REDIS_DB ?? '15'}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Processes

// ---------------------------------------------------------------------------------------------
// Measurement

interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non200: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/** Exact percentile of sorted values (nearest rank). */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

let running: AutocannonInstance | undefined;
let interrupted = false;

/**
 * One autocannon run. Latencies are taken from every 200 response with autocannon's own
 * sub-millisecond timings (its histogram rounds to whole milliseconds, too coarse for a 2 ms budget).
 */
function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
  connections: number,
  duration: number,
  rate = 0,
) {
  return new Promise<Measured>((done, fail) => {
    let times = new Float64Array(1 << 16);
    let n = 0;
    const errorSamples: string[] = [];
    const instance = autocannon(
      { url, connections, duration, headers, timeout: 10, ...(rate > 0 ? { overallRate: rate } : {}) },
      (err, result) => {
        running = undefined;
        if (err) return fail(err);
        const sorted = times.subarray(0, n).sort();
        const statusCodes = Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]),
        );
        const ok = statusCodes['200'] ?? 0;
        const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        if (errorSamples.length && !interrupted)
          console.error(`  ${label}: errors, e.g. ${errorSamples.join('; ')}`);
        done({
          label,
          rps: result.requests.average,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          requests: total,
          non200: total - ok,
          errors: result.errors + result.timeouts + result.mismatches,
          statusCodes,
        });
      },
    );
    running = instance;
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status !== 200) return;
      if (n === times.length) {
        const grown = new Float64Array(times.length * 2);
        grown.set(times);
        times = grown;
      }
      times[n++] = ms;
    });
    instance.on('reqError', (e) => {
      if (errorSamples.length < 3) errorSamples.push(e.message);
    });
  });
}

const fmt = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

type WithCpu = Measured & { cpuMs: { collection: number; gateway: number } };

function report(a: WithCpu, b: WithCpu, s: ReturnType<typeof settings>): void {
  const ratio = b.rps / a.rps;
  const delta = b.p50 - a.p50;
  const ratioOk = ratio >= TARGET_RATIO;
  const deltaOk = delta <= TARGET_P50_DELTA_MS;
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(30) : c.padStart(i === cells.length - 1 ? 8 : 10))).join(' ');
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log('');
  console.log(
    `GET ${PATH}: ${s.connections} connections, ${s.duration} s per run, warm-up ${s.warmup} s; ` +
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpu})`,
  );
  console.log(row(['', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-200', 'errors']));
  for (const m of [a, b]) {
    console.log(
      row([
        m.label,
        fmt(m.rps, 1),
        fmt(m.p50),
        fmt(m.p99),
        String(m.requests),
        String(m.non200),
        String(m.errors),
      ]),
    );
  }
  console.log('');
  console.log('CPU per request (µs, from /proc; steadier than req/s when the cores are shared):');
  console.log(row(['', 'collection', 'gateway']));
  for (const m of [a, b]) {
    const per = (ms: number) => fmt((ms * 1000) / m.requests, 0);
    console.log(row([m.label, per(m.cpuMs.collection), per(m.cpuMs.gateway)]));
  }
  console.log('');
  console.log(
    `throughput b/a: ${fmt(ratio, 3)} (${fmt(ratio * 100, 1)}%; target >= ${TARGET_RATIO * 100}%)`.padEnd(
      62,
    ) + (ratioOk ? 'PASS' : 'FAIL'),
  );
  console.log(
    `p50 b - a:      ${delta >= 0 ? '+' : ''}${fmt(delta)} ms (target <= +${TARGET_P50_DELTA_MS} ms)`.padEnd(
      62,
    ) + (deltaOk ? 'PASS' : 'FAIL'),
  );
  console.log(`overall: ${ratioOk && deltaOk ? 'PASS' : 'FAIL'}`);
}

// ---------------------------------------------------------------------------------------------
// Main

const cleanups: Array<{ name: string; run: () => Promise<unknown> }> = [];
let cleaning: Promise<void> | undefined;

/** Runs every clean-up step in reverse order of registration, once; failures are reported, not thrown. */
function cleanUp(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step.run();
      } catch (err) {
        console.error(`clean-up: ${step.name} failed: ${String(err)}`);
      }
    }
  })());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping`);
    running?.stop();
    void cleanUp().finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const s = settings();
  const suffix = randomBytes(4).toString('hex');
  const identityDb = withDatabase(backing.postgres, `bench_identity_${suffix}`);
  const collectionDb = withDatabase(backing.postgres, `bench_collection_${suffix}`);
  const redisUrl = benchRedisUrl(backing.redis);
  const amqpPrefix = `bench.${suffix}.`;
  const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const signingKey = loadSigningKey(pem);
  const [gatewayPort, collectionPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const collectionUrl = `http://127.0.0.1:${collectionPort}`;
  const common = SERVER_ENV;

  console.log(
    `databases bench_{identity,collection}_${suffix}; collection ${collectionUrl}; gateway ${gatewayUrl}`,
  );
  // Run in reverse: stop the gateway, then the service, then remove what they left behind.
  cleanups.push({
    name: 'drop databases',
    run: () => Promise.all([dropDatabase(identityDb), dropDatabase(collectionDb)]),
  });
  cleanups.push({
    name: 'delete RabbitMQ exchanges',
    run: async () => {
      const conn = await amqp.connect(backing.amqp);
      try {
        const ch = await conn.createChannel();
        for (const ex of Object.values(Exchanges)) await ch.deleteExchange(`${amqpPrefix}${ex}`);
        await ch.close();
      } finally {
        await conn.close();
      }
    },
  });
  const migrations = [
    new Child('gateway migrate', 'gateway/src/migrate.ts', { ...common, DATABASE_URL: identityDb }),
    new Child('collection migrate', 'services/collection/src/migrate.ts', {
      ...common,
      DATABASE_URL: collectionDb,
    }),
  ];
  await Promise.all(migrations.map((m) => m.succeeded()));

  const collection = new Child(
    'collection',
    'services/collection/src/main.ts',
    {
      ...common,
      PORT: String(collectionPort),
      DATABASE_URL: collectionDb,
      AMQP_URL: backing.amqp,
      AMQP_PREFIX: amqpPrefix,
      GATEWAY_JWKS_URL: `${gatewayUrl}/.well-known/jwks.json`,
      INTERNAL_JWT_ISSUER: ISSUER,
    },
    cpuProfileArgs(`collection-${suffix}`),
  );
  cleanups.push({ name: 'stop collection', run: () => collection.stop() });
  const gateway = gatewayChild({
    port: gatewayPort,
    databaseUrl: identityDb,
    redisUrl,
    amqpUrl: backing.amqp,
    prefix: amqpPrefix,
    upstreams: { COLLECTION_URL: collectionUrl },
    privateKeyPem: pem,
    issuer: ISSUER,
    profile: `gateway-${suffix}`,
  });
  cleanups.push({ name: 'stop gateway', run: () => gateway.stop() });

  await waitReady(collection, `${collectionUrl}/readyz`);
  // Redis and RabbitMQ do not make the gateway unready, and it connects to them in the background:
  // give them a few seconds. Without Redis the limiters fail open and would cost nothing.
  let ready = (await waitReady(gateway, `${gatewayUrl}/readyz`)) as { checks?: Record<string, string> };
  for (let i = 0; i < 40 && (ready.checks?.redis !== 'ok' || ready.checks?.rabbitmq !== 'ok'); i++) {
    await sleep(250);
    ready = (await waitReady(gateway, `${gatewayUrl}/readyz`)) as typeof ready;
  }
  if (ready.checks?.redis !== 'ok') {
    throw new Error(`gateway cannot reach Redis at ${redisUrl}: ${JSON.stringify(ready)}`);
  }
  if (ready.checks?.rabbitmq !== 'ok') {
    console.warn(
      `warning: gateway reports RabbitMQ ${String(ready.checks?.rabbitmq)} (not needed by the bench)`,
    );
  }
  // A user and its bearer token, through the gateway.
  const email = `bench-${suffix}@example.test`;
  const { token, user } = await registerUser(gatewayUrl, {
    name: 'Bench User',
    email,
    password: `bench-${suffix}-password`,
  });
  const bearer = { authorization: `Bearer ${token}` };
  const tokenId = Number(token.split('|')[0]);
  /** The internal JWT the gateway would forward for this user, valid for one direct run. */
  const internalJwt = () => ({
    authorization: `Bearer ${signInternalToken(
      { key: signingKey, issuer: ISSUER, ttlSeconds: JWT_TTL_SECONDS },
      'collection',
      { user, method: 'token', tokenId },
      '127.0.0.1',
    )}`,
  });

  // Both paths must answer 200 with the same caller before anything is measured.
  const check = async (what: string, url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${body}`);
    const caller = (JSON.parse(body) as { data?: { userId?: number; method?: string } }).data;
    if (caller?.userId !== user.id || caller.method !== 'token')
      throw new Error(`${what}: unexpected caller ${body}`);
    return res;
  };
  await check('direct call', `${collectionUrl}${PATH}`, internalJwt());
  const proxied = await check('gateway call', `${gatewayUrl}${PATH}`, bearer);
  if (!proxied.headers.get('ratelimit'))
    throw new Error('gateway call: no RateLimit header, is the limiter running?');

  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s per target`);
    await measure('warm-up a', `${collectionUrl}${PATH}`, internalJwt(), s.connections, s.warmup);
    await measure('warm-up b', `${gatewayUrl}${PATH}`, bearer, s.connections, s.warmup);
  }
  console.log(`measuring: ${s.duration} s per target`);
  /** One run, with the CPU time each child used during it. */
  const measureWithCpu = async (label: string, url: string, headers: Record<string, string>) => {
    const before = [collection.cpuMs(), gateway.cpuMs()];
    const m = await measure(label, url, headers, s.connections, s.duration, s.rate);
    const after = [collection.cpuMs(), gateway.cpuMs()];
    const used = (i: number) =>
      before[i] === undefined || after[i] === undefined ? NaN : after[i]! - before[i]!;
    return { ...m, cpuMs: { collection: used(0), gateway: used(1) } };
  };
  const a = await measureWithCpu('(a) direct, internal JWT', `${collectionUrl}${PATH}`, internalJwt());
  const b = await measureWithCpu('(b) gateway, bearer token', `${gatewayUrl}${PATH}`, bearer);

  for (const [child, name] of [
    [collection, 'collection'],
    [gateway, 'gateway'],
  ] as const) {
    if (!child.running) throw new Error(`${name} exited during the run:\n${child.tail()}`);
  }
  report(a, b, s);

  const failed = [a, b].filter((m) => m.non200 > 0 || m.errors > 0 || m.requests === 0);
  if (failed.length) {
    throw new Error(
      'not every request succeeded: ' +
        failed
          .map((m) => `${m.label}: ${m.non200} non-200 ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`)
          .join('; '),
    );
  }
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
  exitCode = 1;
} finally {
  running?.stop();
  await cleanUp();
}
process.exit(exitCode);
