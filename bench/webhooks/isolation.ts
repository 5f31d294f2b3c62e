/**
 * `npm run bench:webhooks -- isolation`: how fast another owner is delivered while one owner's
 * receivers never answer (issue 31; docs/webhooks.md, "Isolation"). The figures the test
 * (libs/webhooks/test/isolation.test.ts) used to time, which asserts the order instead.
 *
 * In this process, on each store (PostgreSQL, then MongoDB: FerretDB unless MONGO_URL is set):
 * the webhook worker with its production limits (128 slots, 8 per subscription, 16 per owner,
 * 16 sockets per owner and origin) and its production 10 s time limit, on the run's own
 * RabbitMQ prefix; one owner (the attacker) with 60 subscriptions (three scopes of 20, the cap)
 * to a loopback receiver that accepts connections and never answers, 20 events in each scope
 * (1,200 deliveries); once they are all fanned out, one event of another owner (the victim)
 * whose subscription is on the same receiver's origin and answers 204 at once. Prints, per
 * store, the victim's first attempt and its arrival after its event's timestamp (ms), and the
 * attacker requests hanging then; PASS when the attempt starts within 1 s (BENCH_TARGET_MS),
 * else FAIL. Exit 0 whether or not the target is met, 1 on errors. BENCH_ROUNDS (1) repeats
 * the measurement per store (a fresh store each time).
 * Backing services: POSTGRES_URL, AMQP_URL, MONGO_URL, else as `npm test` provides them.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { envelope } from '@fieldhouse/contracts';
import { createKnex, migrateLatest } from '@fieldhouse/db';
import { Broker } from '@fieldhouse/messaging';
import { createTestDatabase, eventually, sleep, startWebhookReceiver, testLogger } from '@fieldhouse/testkit';
import {
  AddressGuard,
  createWebhookTables,
  ensureWebhookIndexes,
  knexWebhookRepository,
  KnexWebhookStore,
  mongoWebhookRepository,
  MongoWebhookStore,
  startWebhookWorker,
  WebhookSender,
  type SubscriptionRow,
  type WebhookRepository,
  type WebhookStore,
} from '@fieldhouse/webhooks';
import { provideBackingServices } from '../../scripts/lib/backing.ts';
import { ROOT } from '../lib/child.ts';
import { onCleanup, runBench } from '../lib/run.ts';

/** The sender's production time limit (`WEBHOOK_TIMEOUT_MS`). */
const TIME_LIMIT_MS = 10_000;
const ATTACKER = 666;
const VICTIM = 7;

interface Store {
  store: WebhookStore;
  repo: WebhookRepository;
  close: () => Promise<void>;
}

async function postgresStore(): Promise<Store> {
  const db = await createTestDatabase('bench_webhooks_isolation');
  await migrateLatest(db.url, [
    {
      name: '001',
      up: (k) => createWebhookTables(k, (t) => t.integer('tenant_id').notNullable()),
      down: async () => undefined,
    },
  ]);
  const knex = createKnex(db.url);
  return {
    store: new KnexWebhookStore(knex, "s.tenant_id = (m.scope->>'tenant_id')::int"),
    repo: knexWebhookRepository(knex),
    close: async () => {
      await knex.destroy();
      await db.drop();
    },
  };
}

async function mongoStore(): Promise<Store> {
  const client = await MongoClient.connect(process.env.MONGO_URL!);
  const db = client.db(`bench_webhooks_isolation_${randomBytes(4).toString('hex')}`);
  await ensureWebhookIndexes(db, 'tenant_id');
  return {
    store: new MongoWebhookStore(db, (scope) => ({ tenant_id: scope.tenant_id })),
    repo: mongoWebhookRepository(db),
    close: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

/** One measurement on a fresh store: the victim's attempt and arrival after its event (ms). */
async function measure(makeStore: () => Promise<Store>) {
  const logger = testLogger('webhooks');
  const { store, repo, close } = await makeStore();
  const broker = new Broker({
    url: process.env.AMQP_URL!,
    logger,
    name: 'bench-webhooks-isolation',
    prefix: `bench-whi-${randomBytes(4).toString('hex')}`,
  });
  const receiver = await startWebhookReceiver();
  const worker = await startWebhookWorker({
    broker,
    store,
    sender: new WebhookSender({
      guard: new AddressGuard(['127.0.0.0/8']),
      allowHttp: true,
      timeoutMs: TIME_LIMIT_MS,
    }),
    logger,
    exchange: 'events',
    queuePrefix: 'isolation',
    retryScheduleMs: [600_000],
    attemptTimeoutMs: TIME_LIMIT_MS,
  });
  try {
    const emit = (tenant: number, data: unknown) =>
      broker.publish(
        'events',
        envelope('events', 'webhook.thing.done', { scope: { tenant_id: tenant }, data }),
      );
    const attacker: SubscriptionRow[] = [];
    for (let i = 0; i < 60; i++) {
      receiver.answer(`/dead-${i}`, 'hang');
      attacker.push(
        await repo.insert(
          { tenant_id: 100 + (i % 3) },
          { url: `${receiver.url}/dead-${i}`, events: ['thing.done'] },
          ATTACKER,
        ),
      );
    }
    const victim = await repo.insert(
      { tenant_id: 200 },
      { url: `${receiver.url}/victim`, events: ['thing.done'] },
      VICTIM,
    );
    for (let n = 0; n < 20; n++) for (const tenant of [100, 101, 102]) await emit(tenant, { n });
    const dead = () => receiver.received.filter((r) => r.path.startsWith('/dead-'));
    await eventually(async () => dead().length >= 16, 60_000);
    await eventually(async () => {
      const totals = await Promise.all(
        attacker.map(async (s) => (await repo.listDeliveries(s.id, {}, { page: 1, per_page: 1 })).total),
      );
      return totals.reduce((x, y) => x + y, 0) === 1_200;
    }, 120_000);
    await sleep(500);
    await emit(200, { n: 'victim' });
    const found = await eventually(
      async () => {
        const [d] = (await repo.listDeliveries(victim.id, {}, { page: 1, per_page: 1 })).rows;
        if (!d || d.status !== 'succeeded') return undefined;
        return repo.findDelivery(victim.id, d.id);
      },
      180_000,
      20,
    );
    const eventAt = Date.parse((JSON.parse(found!.body) as { timestamp: string }).timestamp);
    const arrival = receiver.on('/victim')[0]!.at;
    return {
      attemptMs: found!.attempts[0]!.attempted_at.getTime() - eventAt,
      arrivalMs: arrival - eventAt,
      hanging: dead().filter((r) => r.at <= arrival && arrival - r.at < TIME_LIMIT_MS).length,
    };
  } finally {
    await receiver.close();
    await worker.close();
    await broker.close();
    await close();
  }
}

async function main(): Promise<void> {
  const backing = await provideBackingServices(ROOT);
  onCleanup('backing services', () => backing.stop());
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const target = Number(process.env.BENCH_TARGET_MS ?? 1_000);
  let pass = true;
  console.log(
    `webhooks isolation: one owner's 60 never-answering receivers (1,200 deliveries, ${TIME_LIMIT_MS / 1000} s time limit), another owner's one event; ${rounds} round(s) per store`,
  );
  for (const [name, makeStore] of [
    ['PostgreSQL', postgresStore],
    ['MongoDB', mongoStore],
  ] as const) {
    for (let round = 1; round <= rounds; round++) {
      const m = await measure(makeStore);
      const ok = m.attemptMs < target;
      pass &&= ok;
      console.log(
        `  ${name} round ${round}: the victim's attempt +${m.attemptMs} ms, arrival +${m.arrivalMs} ms after its event; ` +
          `${m.hanging} attacker requests hanging (${ok ? 'within' : 'past'} ${target} ms)`,
      );
    }
  }
  console.log(pass ? 'PASS' : 'FAIL');
}

await runBench(main);
