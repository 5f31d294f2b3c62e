/**
 * The stack of `npm run bench:events`: the events service and the gateway as child processes on
 * free loopback ports with fresh databases, a registered owner, one event created through the
 * API, and its invites seeded through the service's data layer (multi-row INSERTs, no e-mails).
 * Backing services: POSTGRES_URL, REDIS_URL, AMQP_URL, else the standard local ports.
 */
import { randomBytes } from 'node:crypto';
import { createKnex, dropDatabase } from '@fieldhouse/db';
import { insertInvitesBulk } from '@fieldhouse/events';
import {
  Child,
  cpuMeter,
  cpuProfileArgs,
  pidListeningOn,
  freePort,
  gatewayChild,
  registerUser,
  SERVER_ENV,
  waitReady,
} from '../lib/child.ts';
import { benchBacking, signingKeyPem, withDatabase } from '../lib/backing.ts';
import { onCleanup } from '../lib/run.ts';

const ISSUER = 'fieldhouse-gateway';

/** What every mode of the bench works on. */
export interface EventsBenchStack {
  gatewayUrl: string;
  eventsDb: string;
  eventId: string;
  /** The owner's bearer token. */
  token: string;
  /** The seeded invites' codes, in insertion order. */
  codes: string[];
  /** This run's random suffix (unique nonces, names). */
  suffix: string;
  /** Throws when the gateway or the service has exited. */
  assertRunning(): void;
  /** A CPU meter over the gateway, the events service, PostgreSQL and Redis. */
  meter(): ReturnType<typeof cpuMeter>;
}

/** Starts the stack and seeds `invites` invites; everything is stopped and dropped on exit. */
export async function startEventsBench(invites: number): Promise<EventsBenchStack> {
  const backing = benchBacking();
  const suffix = randomBytes(4).toString('hex');
  const identityDb = withDatabase(backing.postgres, `bench_identity_${suffix}`);
  const eventsDb = withDatabase(backing.postgres, `bench_events_${suffix}`);
  const prefix = `bench.${suffix}.`;
  const [gatewayPort, eventsPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const eventsUrl = `http://127.0.0.1:${eventsPort}`;
  onCleanup('drop databases', () => Promise.all([dropDatabase(identityDb), dropDatabase(eventsDb)]));

  await Promise.all([
    new Child('gateway migrate', 'gateway/src/migrate.ts', {
      ...SERVER_ENV,
      DATABASE_URL: identityDb,
    }).succeeded(),
    new Child('events migrate', 'services/events/src/migrate.ts', {
      ...SERVER_ENV,
      DATABASE_URL: eventsDb,
    }).succeeded(),
  ]);
  const events = new Child(
    'events',
    'services/events/src/main.ts',
    {
      ...SERVER_ENV,
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
    redisUrl: backing.redis,
    amqpUrl: backing.amqp,
    prefix,
    upstreams: { EVENTS_URL: eventsUrl },
    privateKeyPem: signingKeyPem(),
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
  const created = await fetch(`${gatewayUrl}/api/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', start_date: '2030-01-01T09:00:00', location: 'Bench hall' }),
  });
  if (created.status !== 201) throw new Error(`create event: ${created.status} ${await created.text()}`);
  const eventId = ((await created.json()) as { id: string }).id;

  const seedStart = Date.now();
  const db = createKnex(eventsDb, { poolMax: 2 });
  const seeded = await insertInvitesBulk(
    db,
    eventId,
    Array.from({ length: invites }, (_, i) => ({
      nom: `Guest ${i}`,
      email: `guest${i}@bench.test`,
      type_invite: 'standard',
    })),
  );
  await db.raw('ANALYZE invites');
  await db.destroy();
  const codes = seeded.map((r) => r.code_unique);
  console.log(`seeded ${codes.length} invites in ${Date.now() - seedStart} ms (multi-row INSERTs of 1000)`);

  return {
    gatewayUrl,
    eventsDb,
    eventId,
    token,
    codes,
    suffix,
    assertRunning() {
      for (const c of [events, gateway]) if (!c.running) throw new Error(`${c.name} exited:\n${c.tail()}`);
    },
    meter: () =>
      cpuMeter({
        gateway: gateway.pid,
        events: events.pid,
        postgres: pidListeningOn(Number(new URL(backing.postgres).port || 5432)),
        redis: pidListeningOn(Number(new URL(backing.redis).port || 6379)),
      }),
  };
}

/**
 * A scanner device of the bench's event, set up as a phone does it: created by the owner
 * (`POST /api/events/{id}/devices`), its setup code redeemed at the gateway
 * (`POST /api/events/devices/setup`). Resolves with its bearer credential (`fhd_...`).
 */
export async function setUpDevice(stack: EventsBenchStack, name: string): Promise<string> {
  const created = await fetch(`${stack.gatewayUrl}/api/events/${stack.eventId}/devices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (created.status !== 201) throw new Error(`create device: ${created.status} ${await created.text()}`);
  const { setup_code } = (await created.json()) as { setup_code: string };
  const setup = await fetch(`${stack.gatewayUrl}/api/events/devices/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ setup_code }),
  });
  if (setup.status !== 201) throw new Error(`device setup: ${setup.status} ${await setup.text()}`);
  return ((await setup.json()) as { token: string }).token;
}

/** The event's statistics against the history, as every mode checks them. */
export interface Exactness {
  stats: { total: number; present: number; absent: number; taux: number };
  expected: { total: number; present: number; absent: number; taux: number };
  /** Check-in rows in the history. */
  scanned: number;
  exact: boolean;
}

/**
 * Reads `GET .../stats` and the history's check-in rows: the statistics are exact when they
 * follow from the rows (`present` = rows, `absent = total - present`, `taux` rounded down) and
 * the rows lie between `answered` (200s received) and `sent` (codes sent).
 */
export async function checkExact(
  stack: EventsBenchStack,
  answered: number,
  sent: number,
): Promise<Exactness> {
  const statsRes = await fetch(`${stack.gatewayUrl}/api/events/${stack.eventId}/stats`, {
    headers: { authorization: `Bearer ${stack.token}` },
  });
  const stats = (await statsRes.json()) as Exactness['stats'];
  const check = createKnex(stack.eventsDb, { poolMax: 1 });
  const [{ n }] = (await check('attendance_log')
    .where({ event_id: stack.eventId, action: 'checkin' })
    .count({ n: '*' })) as [{ n: number }];
  await check.destroy();
  const scanned = Number(n);
  const total = stack.codes.length;
  const expected = {
    total,
    present: scanned,
    absent: total - scanned,
    taux: Math.floor((100 * scanned) / total),
  };
  const exact = JSON.stringify(stats) === JSON.stringify(expected) && scanned >= answered && scanned <= sent;
  console.log(`stats: ${JSON.stringify(stats)}   expected: ${JSON.stringify(expected)}`);
  console.log(`check-ins in the history: ${scanned}; 200 answers received: ${answered}; codes sent: ${sent}`);
  return { stats, expected, scanned, exact };
}
