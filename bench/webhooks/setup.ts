/**
 * What `npm run bench:webhooks` runs against, each part removed again at the end (bench/lib/run.ts
 * clean-up steps): a fresh events database migrated with the events service's migrations, a
 * number of events each with one webhook subscription (`invite.created`) to a path of the local
 * receiver, and three child processes on the run's own RabbitMQ prefix:
 * - the receiver (bench/webhooks/receiver.ts), answering 204;
 * - the events service's HTTP process (services/events/src/main.ts): its outbox relay, woken by
 *   the triggers' `NOTIFY outbox`, publishes the `webhook.invite.created` events;
 * - the events worker process (services/events/src/workers/main.ts): the webhook delivery
 *   worker fans each event out to its subscription and delivers it.
 * Both events processes run with their production settings, except that webhooks may reach
 * loopback over plain http (`WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8`, `WEBHOOK_ALLOW_HTTP=true`).
 */
import { randomUUID } from 'node:crypto';
import { createKnex, dropDatabase, migrateLatest, type Knex } from '@fieldhouse/db';
import { migrations } from '@fieldhouse/events';
import { newWebhookSecret } from '@fieldhouse/webhooks';
import { benchBacking, withDatabase } from '../lib/backing.ts';
import { Child, cpuProfileArgs, freePort, SERVER_ENV, waitReady } from '../lib/child.ts';
import { onCleanup } from '../lib/run.ts';
import { RabbitProbe } from './rabbit.ts';

export interface WebhookStack {
  /** The events database (a small pool for the bench's inserts and checks). */
  db: Knex;
  /** The events, in order; subscription i belongs to event i. */
  eventIds: string[];
  receiver: Child;
  receiverUrl: string;
  events: Child;
  worker: Child;
  probe: RabbitProbe;
}

/** Creates the database, the events and their subscriptions, and starts the three processes. */
export async function startWebhookStack(tag: string, subscriptions: number): Promise<WebhookStack> {
  const backing = benchBacking();
  const dbUrl = withDatabase(backing.postgres, `bench_webhooks_${tag}`);
  const prefix = `bench.${tag}.`;
  onCleanup('drop the database', () => dropDatabase(dbUrl));
  await migrateLatest(dbUrl, migrations);
  const db = createKnex(dbUrl, { poolMax: 4 });

  const receiverPort = await freePort();
  const receiverUrl = `http://127.0.0.1:${receiverPort}`;
  const eventIds = Array.from({ length: subscriptions }, () => randomUUID());
  const secrets: Record<string, string> = {};
  await db('events').insert(
    eventIds.map((id, i) => ({
      id,
      owner_id: 1,
      name: `Webhook bench ${i}`,
      start_date: '2030-01-01T09:00:00',
      start_at: '2030-01-01T09:00:00',
      location: 'Bench hall',
    })),
  );
  await db('webhook_subscriptions').insert(
    eventIds.map((eventId, i) => {
      secrets[`/hooks/${i}`] = newWebhookSecret();
      return {
        id: randomUUID(),
        event_id: eventId,
        url: `${receiverUrl}/hooks/${i}`,
        events: ['invite.created'],
        secret: secrets[`/hooks/${i}`],
        created_by: 1,
      };
    }),
  );

  const probe = new RabbitProbe(backing.amqp, prefix);
  onCleanup('delete the run’s RabbitMQ queues and exchanges', async () => {
    await probe.deleteRunTopology();
    await probe.close();
  });
  const receiver = new Child(
    'webhook receiver',
    'bench/webhooks/receiver.ts',
    { PORT: String(receiverPort), RECEIVER_SECRETS: JSON.stringify(secrets) },
    cpuProfileArgs('webhook-receiver'),
  );
  onCleanup('stop the receiver', () => receiver.stop());
  await waitReady(receiver, `${receiverUrl}/healthz`);

  const env = {
    ...SERVER_ENV,
    DATABASE_URL: dbUrl,
    AMQP_URL: backing.amqp,
    AMQP_PREFIX: prefix,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  };
  const eventsPort = await freePort();
  const events = new Child(
    'events',
    'services/events/src/main.ts',
    // No gateway: nothing calls the API, the JWKS URL is never fetched.
    { ...env, PORT: String(eventsPort), GATEWAY_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json' },
    cpuProfileArgs('events'),
  );
  onCleanup('stop the events process', () => events.stop());
  const worker = new Child(
    'events worker',
    'services/events/src/workers/main.ts',
    env,
    cpuProfileArgs('events-worker'),
  );
  onCleanup('stop the events worker', () => worker.stop());
  onCleanup('close the bench’s database pool', () => db.destroy());
  await waitReady(events, `http://127.0.0.1:${eventsPort}/readyz`);
  await probe.waitForWorker(() => {
    if (!worker.running) throw new Error(`the events worker exited during start-up:\n${worker.tail()}`);
  });
  return { db, eventIds, receiver, receiverUrl, events, worker, probe };
}
