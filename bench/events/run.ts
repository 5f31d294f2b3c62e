/**
 * `npm run bench:events`: check-ins per second through the gateway on an event of 50,000 invites.
 *
 * Starts the events service and the gateway as child processes on free loopback ports with fresh
 * databases, registers a user, creates an event through the API, seeds the invites through the
 * service's data layer (multi-row INSERTs, no e-mails), warms up, then drives
 * `POST /api/events/{id}/checkin` with autocannon, every request scanning a different code.
 * Prints check-ins/s, p50 and p99 (of the 200 answers), then checks `GET /stats` is exact
 * (present = number of 200 answers) and PASS/FAIL against the target (>= 1,500/s, p99 <= 30 ms).
 * Exit code 0 whether or not the target is met; 1 on errors (wrong stats, a non-200 answer...).
 *
 * Exactness: every successful check-in writes one history row, so `present` must equal the
 * history rows of the event, lie between the 200 answers received and the codes sent (requests
 * cut when autocannon stops may or may not have been applied), and total/absent/taux must follow.
 * Options: --duration / BENCH_DURATION (s, default 15), --connections / BENCH_CONNECTIONS
 * (default 32), --warmup / BENCH_WARMUP (s, default 3), --invites / BENCH_INVITES (default 50000).
 * Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL, else the standard local ports.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { createKnex, dropDatabase } from '@fieldhouse/db';
import { insertInvitesBulk } from '@fieldhouse/events';
import {
  Child,
  cpuMeter,
  cpuProfileArgs,
  pidListeningOn,
  printCpuTable,
  freePort,
  gatewayChild,
  registerUser,
  SERVER_ENV,
  sleep,
  waitReady,
} from '../lib/child.ts';
import { load } from '../lib/load.ts';
import { benchBacking, signingKeyPem, withDatabase } from '../lib/backing.ts';
import { onCleanup, runBench } from '../lib/run.ts';

const ISSUER = 'fieldhouse-gateway';
const TARGET_RPS = 1_500;
const TARGET_P99_MS = 30;

function settings() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      invites: { type: 'string' },
    },
  });
  const int = (raw: string | undefined, fallback: number) => (raw ? Number.parseInt(raw, 10) : fallback);
  return {
    duration: int(values.duration ?? process.env.BENCH_DURATION, 15),
    connections: int(values.connections ?? process.env.BENCH_CONNECTIONS, 32),
    warmup: int(values.warmup ?? process.env.BENCH_WARMUP, 3),
    invites: int(values.invites ?? process.env.BENCH_INVITES, 50_000),
  };
}

const backing = benchBacking();

/** One run of check-ins, request i scanning `codes[from + i]`. */
function run(
  url: string,
  token: string,
  codes: string[],
  from: number,
  connections: number,
  duration: number,
) {
  return load({
    url,
    connections,
    duration,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    bodies: (i) => JSON.stringify({ code_unique: codes[(from + i) % codes.length], device: 'bench' }),
  });
}

async function main(): Promise<void> {
  const s = settings();
  const suffix = randomBytes(4).toString('hex');
  const identityDb = withDatabase(backing.postgres, `bench_identity_${suffix}`);
  const eventsDb = withDatabase(backing.postgres, `bench_events_${suffix}`);
  const redisUrl = backing.redis;
  const prefix = `bench.${suffix}.`;
  const pem = signingKeyPem();
  const [gatewayPort, eventsPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const eventsUrl = `http://127.0.0.1:${eventsPort}`;
  const common = SERVER_ENV;
  onCleanup('drop databases', () => Promise.all([dropDatabase(identityDb), dropDatabase(eventsDb)]));

  await Promise.all([
    new Child('gateway migrate', 'gateway/src/migrate.ts', {
      ...common,
      DATABASE_URL: identityDb,
    }).succeeded(),
    new Child('events migrate', 'services/events/src/migrate.ts', {
      ...common,
      DATABASE_URL: eventsDb,
    }).succeeded(),
  ]);
  const events = new Child(
    'events',
    'services/events/src/main.ts',
    {
      ...common,
      PORT: String(eventsPort),
      DATABASE_URL: eventsDb,
      DB_POOL_MAX: process.env.BENCH_DB_POOL ?? '10',
      AMQP_URL: backing.amqp,
      AMQP_PREFIX: prefix,
      GATEWAY_JWKS_URL: `${gatewayUrl}/.well-known/jwks.json`,
      INTERNAL_JWT_ISSUER: ISSUER,
    },
    cpuProfileArgs('events'),
  );
  onCleanup('stop events', () => events.stop());
  const gateway = gatewayChild({
    port: gatewayPort,
    databaseUrl: identityDb,
    redisUrl,
    amqpUrl: backing.amqp,
    prefix,
    upstreams: { EVENTS_URL: eventsUrl },
    privateKeyPem: pem,
    issuer: ISSUER,
  });
  onCleanup('stop gateway', () => gateway.stop());
  await waitReady(events, `${eventsUrl}/readyz`);
  await waitReady(gateway, `${gatewayUrl}/readyz`);

  const { token } = await registerUser(gatewayUrl, {
    name: 'Bench Owner',
    email: `bench-${suffix}@example.test`,
    password: `bench-${suffix}-pw`,
  });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${gatewayUrl}/api/events`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Bench', start_date: '2030-01-01T09:00:00', location: 'Bench hall' }),
  });
  if (created.status !== 201) throw new Error(`create event: ${created.status} ${await created.text()}`);
  const eventId = ((await created.json()) as { id: string }).id;

  const seedStart = Date.now();
  const db = createKnex(eventsDb, { poolMax: 2 });
  const seeded = await insertInvitesBulk(
    db,
    eventId,
    Array.from({ length: s.invites }, (_, i) => ({
      nom: `Guest ${i}`,
      email: `guest${i}@bench.test`,
      type_invite: 'standard',
    })),
  );
  await db.raw('ANALYZE invites');
  await db.destroy();
  const codes = seeded.map((r) => r.code_unique);
  console.log(`seeded ${codes.length} invites in ${Date.now() - seedStart} ms (multi-row INSERTs of 1000)`);

  const url = `${gatewayUrl}/api/events/${eventId}/checkin`;
  const next = { i: 0 };
  let okBefore = 0;
  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s`);
    const w = await run(url, token, codes, next.i, s.connections, s.warmup);
    okBefore = w.ok;
    next.i += w.sent;
  }
  console.log(`measuring: ${s.duration} s, ${s.connections} connections`);
  const meter = cpuMeter({
    gateway: gateway.pid,
    events: events.pid,
    postgres: pidListeningOn(Number(new URL(backing.postgres).port || 5432)),
    redis: pidListeningOn(Number(new URL(backing.redis).port || 6379)),
  });
  const m = await run(url, token, codes, next.i, s.connections, s.duration);
  const cpuPerCheckIn = meter.perRequest(m.ok + m.other);
  next.i += m.sent;
  if (next.i > codes.length) throw new Error('the codes ran out: use more --invites or a shorter --duration');
  await sleep(500); // requests cut when autocannon stopped may still be finishing
  for (const c of [events, gateway]) if (!c.running) throw new Error(`${c.name} exited:\n${c.tail()}`);

  const statsRes = await fetch(`${gatewayUrl}/api/events/${eventId}/stats`, { headers: auth });
  const stats = (await statsRes.json()) as { total: number; present: number; absent: number; taux: number };
  const check = createKnex(eventsDb, { poolMax: 1 });
  const [{ n: logged }] = (await check('attendance_log')
    .where({ event_id: eventId, action: 'checkin' })
    .count({ n: '*' })) as [{ n: number }];
  await check.destroy();
  const scanned = Number(logged);
  const expected = {
    total: codes.length,
    present: scanned,
    absent: codes.length - scanned,
    taux: Math.floor((100 * scanned) / codes.length),
  };
  const answered = okBefore + m.ok;
  const inRange = scanned >= answered && scanned <= next.i;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log('');
  console.log(
    `POST /api/events/{id}/checkin through the gateway; Node ${process.version}, ${availableParallelism()} CPUs (${cpu})`,
  );
  console.log(
    `check-ins/s: ${m.rps.toFixed(1)}   p50: ${m.p50.toFixed(2)} ms   p99: ${m.p99.toFixed(2)} ms   checked in: ${m.ok}`,
  );
  console.log(`status codes: ${JSON.stringify(m.statusCodes)}   errors: ${m.errors}`);
  printCpuTable([['check-in', cpuPerCheckIn]]);
  console.log(`stats: ${JSON.stringify(stats)}   expected: ${JSON.stringify(expected)}`);
  console.log(
    `check-ins in the history: ${scanned}; 200 answers received: ${answered}; codes sent: ${next.i}`,
  );
  const exact = JSON.stringify(stats) === JSON.stringify(expected) && inRange;
  const rpsOk = m.rps >= TARGET_RPS;
  const p99Ok = m.p99 <= TARGET_P99_MS;
  console.log(`stats exact:                 ${exact ? 'PASS' : 'FAIL'}`);
  console.log(`check-ins/s >= ${TARGET_RPS}:        ${rpsOk ? 'PASS' : 'FAIL'}`);
  console.log(`p99 <= ${TARGET_P99_MS} ms:               ${p99Ok ? 'PASS' : 'FAIL'}`);
  console.log(`overall: ${exact && rpsOk && p99Ok ? 'PASS' : 'FAIL'}`);
  if (!exact) throw new Error('statistics are not exact');
  const non200 = Object.entries(m.statusCodes).filter(([k]) => k !== '200');
  if (non200.length || m.errors)
    throw new Error(`unexpected answers: ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`);
}

await runBench(main);
