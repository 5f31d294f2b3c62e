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
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import amqp from 'amqplib';
import { Exchanges } from '@fieldhouse/contracts';
import { dropDatabase } from '@fieldhouse/db';
import { signInternalToken } from '../../gateway/src/proxy/internal-token.ts';
import { loadSigningKey } from '../../gateway/src/proxy/signing-key.ts';
import {
  Child,
  cpuMeter,
  cpuProfileArgs,
  freePort,
  gatewayChild,
  printCpuTable,
  registerUser,
  SERVER_ENV,
  sleep,
  waitReady,
} from '../lib/child.ts';
import { load, type LoadResult } from '../lib/load.ts';
import { benchBacking, signingKeyPem, withDatabase } from '../lib/backing.ts';
import { onCleanup, runBench } from '../lib/run.ts';

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

const backing = benchBacking();

// ---------------------------------------------------------------------------------------------
// Measurement

/** One run of `load()` with its label and the CPU µs per request of each process. */
type Measured = LoadResult & { label: string; cpu: Record<string, number> };

const fmt = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

function report(a: Measured, b: Measured, s: ReturnType<typeof settings>): void {
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
        String(m.ok + m.other),
        String(m.other),
        String(m.errors),
      ]),
    );
  }
  console.log('');
  printCpuTable([
    [a.label, a.cpu],
    [b.label, b.cpu],
  ]);
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

async function main(): Promise<void> {
  const s = settings();
  const suffix = randomBytes(4).toString('hex');
  const identityDb = withDatabase(backing.postgres, `bench_identity_${suffix}`);
  const collectionDb = withDatabase(backing.postgres, `bench_collection_${suffix}`);
  const redisUrl = backing.redis;
  const amqpPrefix = `bench.${suffix}.`;
  const pem = signingKeyPem();
  const signingKey = loadSigningKey(pem);
  const [gatewayPort, collectionPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const collectionUrl = `http://127.0.0.1:${collectionPort}`;
  const common = SERVER_ENV;

  console.log(
    `databases bench_{identity,collection}_${suffix}; collection ${collectionUrl}; gateway ${gatewayUrl}`,
  );
  // Run in reverse: stop the gateway, then the service, then remove what they left behind.
  onCleanup('drop databases', () => Promise.all([dropDatabase(identityDb), dropDatabase(collectionDb)]));
  onCleanup('delete RabbitMQ exchanges', async () => {
    const conn = await amqp.connect(backing.amqp);
    try {
      const ch = await conn.createChannel();
      for (const ex of Object.values(Exchanges)) await ch.deleteExchange(`${amqpPrefix}${ex}`);
      await ch.close();
    } finally {
      await conn.close();
    }
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
  onCleanup('stop collection', () => collection.stop());
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
  onCleanup('stop gateway', () => gateway.stop());

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

  const run = (url: string, headers: Record<string, string>, duration: number) =>
    load({ url, headers, connections: s.connections, duration, ...(s.rate > 0 ? { rate: s.rate } : {}) });
  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s per target`);
    await run(`${collectionUrl}${PATH}`, internalJwt(), s.warmup);
    await run(`${gatewayUrl}${PATH}`, bearer, s.warmup);
  }
  console.log(`measuring: ${s.duration} s per target`);
  /** One run, with the CPU time each child used per request during it. */
  const measure = async (label: string, url: string, headers: Record<string, string>): Promise<Measured> => {
    const meter = cpuMeter({ collection: collection.pid, gateway: gateway.pid });
    const m = await run(url, headers, s.duration);
    if (m.errorSamples.length) console.error(`  ${label}: errors, e.g. ${m.errorSamples.join('; ')}`);
    return { ...m, label, cpu: meter.perRequest(m.ok + m.other) };
  };
  const a = await measure('(a) direct, internal JWT', `${collectionUrl}${PATH}`, internalJwt());
  const b = await measure('(b) gateway, bearer token', `${gatewayUrl}${PATH}`, bearer);

  for (const [child, name] of [
    [collection, 'collection'],
    [gateway, 'gateway'],
  ] as const) {
    if (!child.running) throw new Error(`${name} exited during the run:\n${child.tail()}`);
  }
  report(a, b, s);

  const failed = [a, b].filter((m) => m.other > 0 || m.errors > 0 || m.ok === 0);
  if (failed.length) {
    throw new Error(
      'not every request succeeded: ' +
        failed
          .map((m) => `${m.label}: ${m.other} non-200 ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`)
          .join('; '),
    );
  }
}

await runBench(main);
