/**
 * `npm run bench:gateway`: what the gateway costs on top of a service (issue: "bench/gateway").
 *
 * Starts the collection service and the gateway as child processes (each on its own event loop,
 * apart from autocannon's) on free loopback ports with fresh databases, registers a user, warms
 * up, then measures with autocannon, with the same connections and duration:
 *   (a) `GET /api/v1/_whoami` on the collection service, with a valid internal JWT;
 *   (b) the same through the gateway with the user's bearer token (token lookup, per-IP and
 *       per-user rate limits in Redis, internal JWT signing, proxy);
 *   (c) the same as (a) through a bare Node.js proxy (bare-proxy.ts: `http.request` over a
 *       keep-alive agent and `pipe`), the reference of issue #21;
 *   (d) the same through http-proxy-middleware alone on a plain `node:http` server, with the
 *       gateway's proxy options (hpm-proxy.ts): the floor of any gateway built on the library
 *       the design names, printed beside the verdict (which stays b against c).
 * Prints req/s, p50 and p99 of each and the CPU µs per request of every process, the ratios
 * b/c (throughput) and CPU(b)/CPU(c) (the gateway's CPU per request over the bare proxy's),
 * the p50 added over direct, and PASS/FAIL against issue #21's targets (CPU(b) <= 1.2 x
 * CPU(c), b >= 85% of c's req/s, p50 at most 1 ms above a's); the last line is `overall: PASS`
 * or `overall: FAIL`. Then stops the children and drops the databases. Exit code 0 whether or
 * not the targets are met; 1 on errors (a process that does not start, any response that is
 * not 200, a connection error).
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
/** Issue #21: throughput of (b) over (c), the gateway's CPU per request over the bare proxy's, p50 added. */
const TARGET_THROUGHPUT = 0.85;
const TARGET_CPU = 1.2;
const TARGET_P50_DELTA_MS = 1;
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

function report(a: Measured, b: Measured, c: Measured, d: Measured, s: ReturnType<typeof settings>): void {
  const throughput = b.rps / c.rps;
  const cpuRatio = b.cpu.gateway! / c.cpu.proxy!;
  const delta = b.p50 - a.p50;
  const checks: Array<[string, boolean]> = [
    [
      `throughput b/c: ${fmt(throughput, 3)} (${fmt(throughput * 100, 1)}%; target >= ${TARGET_THROUGHPUT * 100}%)`,
      throughput >= TARGET_THROUGHPUT,
    ],
    [
      `CPU per request, gateway (b) / bare proxy (c): ${fmt(b.cpu.gateway!, 0)} / ${fmt(c.cpu.proxy!, 0)} µs = ${fmt(cpuRatio, 2)}x (target <= ${TARGET_CPU}x)`,
      cpuRatio <= TARGET_CPU,
    ],
    [
      `p50 b - a: ${delta >= 0 ? '+' : ''}${fmt(delta)} ms (target <= +${TARGET_P50_DELTA_MS} ms)`,
      delta <= TARGET_P50_DELTA_MS,
    ],
  ];
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(30) : c.padStart(i === cells.length - 1 ? 8 : 10))).join(' ');
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log('');
  console.log(
    `GET ${PATH}: ${s.connections} connections, ${s.duration} s per run, warm-up ${s.warmup} s; ` +
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpu})`,
  );
  console.log(row(['', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-200', 'errors']));
  for (const m of [a, b, c, d]) {
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
    [c.label, c.cpu],
    [d.label, d.cpu],
  ]);
  console.log('');
  console.log(`throughput b/a: ${fmt(b.rps / a.rps, 3)}, c/a: ${fmt(c.rps / a.rps, 3)} (for reference)`);
  console.log(
    `http-proxy-middleware alone (d) / bare proxy (c): ${fmt(d.cpu.hpm!, 0)} / ${fmt(c.cpu.proxy!, 0)} µs = ` +
      `${fmt(d.cpu.hpm! / c.cpu.proxy!, 2)}x CPU, ${fmt(d.rps / c.rps, 3)} throughput; gateway (b) / (d): ` +
      `${fmt(b.cpu.gateway! / d.cpu.hpm!, 2)}x CPU (for reference: the library's own floor)`,
  );
  for (const [text, ok] of checks) console.log(text.padEnd(78) + (ok ? 'PASS' : 'FAIL'));
  console.log(`overall: ${checks.every(([, ok]) => ok) ? 'PASS' : 'FAIL'}`);
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
  const [gatewayPort, collectionPort, proxyPort, hpmPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const collectionUrl = `http://127.0.0.1:${collectionPort}`;
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const hpmUrl = `http://127.0.0.1:${hpmPort}`;
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
  /** A comparison proxy (`bench/gateway/<name>.ts`) in front of the collection service. */
  const comparisonProxy = (name: string, port: number) => {
    const child = new Child(
      name,
      `bench/gateway/${name}.ts`,
      { PORT: String(port), TARGET: collectionUrl },
      cpuProfileArgs(`${name}-${suffix}`),
    );
    onCleanup(`stop ${name}`, () => child.stop());
    return child;
  };
  const proxy = comparisonProxy('bare-proxy', proxyPort);
  const hpm = comparisonProxy('hpm-proxy', hpmPort);

  await waitReady(collection, `${collectionUrl}/readyz`);
  await waitReady(proxy, `${proxyUrl}/readyz`);
  await waitReady(hpm, `${hpmUrl}/readyz`);
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
      { user: { ...user, emailVerified: false }, method: 'token', tokenId },
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
  await check('bare proxy call', `${proxyUrl}${PATH}`, internalJwt());
  await check('http-proxy-middleware call', `${hpmUrl}${PATH}`, internalJwt());
  const proxied = await check('gateway call', `${gatewayUrl}${PATH}`, bearer);
  if (!proxied.headers.get('ratelimit'))
    throw new Error('gateway call: no RateLimit header, is the limiter running?');

  const run = (url: string, headers: Record<string, string>, duration: number) =>
    load({ url, headers, connections: s.connections, duration, ...(s.rate > 0 ? { rate: s.rate } : {}) });
  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s per target`);
    await run(`${collectionUrl}${PATH}`, internalJwt(), s.warmup);
    await run(`${gatewayUrl}${PATH}`, bearer, s.warmup);
    await run(`${proxyUrl}${PATH}`, internalJwt(), s.warmup);
    await run(`${hpmUrl}${PATH}`, internalJwt(), s.warmup);
  }
  console.log(`measuring: ${s.duration} s per target`);
  /** One run, with the CPU time each child used per request during it. */
  const measure = async (label: string, url: string, headers: Record<string, string>): Promise<Measured> => {
    const meter = cpuMeter({
      collection: collection.pid,
      gateway: gateway.pid,
      proxy: proxy.pid,
      hpm: hpm.pid,
    });
    const m = await run(url, headers, s.duration);
    if (m.errorSamples.length) console.error(`  ${label}: errors, e.g. ${m.errorSamples.join('; ')}`);
    return { ...m, label, cpu: meter.perRequest(m.ok + m.other) };
  };
  const a = await measure('(a) direct, internal JWT', `${collectionUrl}${PATH}`, internalJwt());
  const b = await measure('(b) gateway, bearer token', `${gatewayUrl}${PATH}`, bearer);
  const c = await measure('(c) bare proxy, internal JWT', `${proxyUrl}${PATH}`, internalJwt());
  const d = await measure('(d) hpm alone, internal JWT', `${hpmUrl}${PATH}`, internalJwt());

  for (const [child, name] of [
    [collection, 'collection'],
    [gateway, 'gateway'],
    [proxy, 'bare proxy'],
    [hpm, 'http-proxy-middleware proxy'],
  ] as const) {
    if (!child.running) throw new Error(`${name} exited during the run:\n${child.tail()}`);
  }
  report(a, b, c, d, s);

  const failed = [a, b, c, d].filter((m) => m.other > 0 || m.errors > 0 || m.ok === 0);
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
