import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { startServer, type RunningServer } from '@fieldhouse/http';
import { jwksKeyResolver, type KeyResolver } from '@fieldhouse/internal-auth';
import {
  composeGateway,
  loadGatewayConfig,
  migrations as gatewayMigrations,
  type Gateway,
  type GatewayConfig,
} from '@fieldhouse/gateway';
import {
  createCollectionApp,
  FileBlobStore,
  migrations as collectionMigrations,
  type BlobStore,
} from '@fieldhouse/collection';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventsApp, migrations as eventsMigrations } from '@fieldhouse/events';
import { createPollsApp, ensureIndexes, pollsOutboxRelay } from '@fieldhouse/polls';
import { Broker } from '@fieldhouse/messaging';
import type { Db } from 'mongodb';
import {
  backingUrl,
  createTestDatabase,
  randomPrefix,
  testLogger,
  type TestDatabase,
} from '@fieldhouse/testkit';
import { createClient } from 'redis';
import { webhookApiSettings, webhookEnvDefaults, type WebhookVars } from '@fieldhouse/webhooks';

/**
 * The webhook settings of the test stack's services and workers: plain http and loopback
 * receivers allowed (the tests' receivers), every other private network refused.
 */
export const testWebhookVars: WebhookVars = {
  ...webhookEnvDefaults,
  WEBHOOK_ALLOW_HTTP: true,
  WEBHOOK_ALLOWED_NETWORKS: ['127.0.0.0/8', '::1/128'],
};

export interface TestStack {
  /** `http://127.0.0.1:<port>` of the gateway. */
  gatewayUrl: string;
  serviceUrls: { collection: string; polls: string; events: string };
  gateway: Gateway;
  config: GatewayConfig;
  identityDb: Knex;
  /** The polls service's MongoDB database and RabbitMQ broker (its e-mail worker uses them). */
  polls: { db: Db; broker: Broker };
  /** The events service's database (e2e tests run its outbox relay and e-mail worker on it). */
  eventsDb: Knex;
  /** Connection URLs of the services' databases (for worker processes started by tests). */
  databaseUrls: { collection: string; events: string };
  /** The collection service's database and blob store (e2e tests run its workers on them). */
  collection: { db: Knex; blobs: BlobStore };
  stop: () => Promise<void>;
}

export interface StackOptions {
  /** Gateway variables to override (rate limits, upstream URLs, REDIS_URL...). */
  gatewayEnv?: Record<string, string>;
}

/** A fresh EC P-256 key in PEM, as the local stack generates on first start. */
export const newSigningKeyPem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();

/**
 * Starts the gateway and the three services in this process on free ports, each on its own
 * fresh database (PostgreSQL databases, a MongoDB database) and a random RabbitMQ prefix.
 * The services verify the gateway's JWTs through its real JWKS endpoint.
 */
export async function startStack(opts: StackOptions = {}): Promise<TestStack> {
  const logger = testLogger('e2e');
  const dbs: TestDatabase[] = await Promise.all(
    ['identity', 'collection', 'events'].map((l) => createTestDatabase(l)),
  );
  const [identity, collection, events] = dbs as [TestDatabase, TestDatabase, TestDatabase];
  await Promise.all([
    migrateLatest(identity.url, gatewayMigrations),
    migrateLatest(collection.url, collectionMigrations),
    migrateLatest(events.url, eventsMigrations),
  ]);
  const mongo = await MongoClient.connect(await backingUrl('mongo'));
  const pollsDb = mongo.db(`t_polls_${Math.random().toString(36).slice(2, 8)}`);
  await ensureIndexes(pollsDb);
  const redisUrl = await backingUrl('redis');
  const redis = createClient({ url: redisUrl });
  await redis.connect();

  let jwks: KeyResolver | undefined;
  let gatewayUrl = '';
  const keys: KeyResolver = (kid) => (jwks ??= jwksKeyResolver(`${gatewayUrl}/.well-known/jwks.json`))(kid);
  const common = {
    logger,
    keys,
    issuer: 'fieldhouse-gateway',
    bodyLimit: '1mb',
    webhooks: webhookApiSettings(testWebhookVars),
  };

  const collectionKnex = createKnex(collection.url);
  const collectionBlobs = new FileBlobStore(join(tmpdir(), `fieldhouse-e2e-blobs-${randomPrefix('c')}`));
  const eventsKnex = createKnex(events.url);
  const servers: RunningServer[] = [];
  const serve = async (made: {
    app: Parameters<typeof startServer>[0];
    lifecycle: { shuttingDown: boolean };
  }) => {
    const s = await startServer(made.app, { port: 0, host: '127.0.0.1', logger, lifecycle: made.lifecycle });
    servers.push(s);
    return s.url;
  };
  const amqpUrl = await backingUrl('amqp');
  const pollsBroker = new Broker({
    url: amqpUrl,
    logger,
    name: 'e2e-polls',
    prefix: randomPrefix('e2e-polls'),
  });
  // As services/polls/src/main.ts: the process starts the relay and the app kicks it.
  const pollsRelay = pollsOutboxRelay(pollsDb, pollsBroker, logger);
  pollsRelay.start();
  const pollsApp = createPollsApp({
    ...common,
    mongo: pollsDb,
    redis,
    outboxWritten: () => pollsRelay.kick(),
  });
  const serviceUrls = {
    collection: await serve(createCollectionApp({ ...common, db: collectionKnex, blobs: collectionBlobs })),
    polls: await serve(pollsApp),
    events: await serve(
      createEventsApp({
        ...common,
        db: eventsKnex,
        codeSigningSecret: randomBytes(32).toString('base64url'),
      }),
    ),
  };

  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: identity.url,
    REDIS_URL: redisUrl,
    AMQP_URL: amqpUrl,
    AMQP_PREFIX: randomPrefix('e2e'),
    REDIS_PREFIX: randomPrefix('e2e').replaceAll('.', ':'),
    COLLECTION_URL: serviceUrls.collection,
    POLLS_URL: serviceUrls.polls,
    EVENTS_URL: serviceUrls.events,
    INTERNAL_JWT_PRIVATE_KEY: newSigningKeyPem(),
    CORS_ORIGINS: 'https://app.example.test',
    ...opts.gatewayEnv,
  });
  const gateway = await composeGateway(config, logger);
  const gatewayServer = await startServer(gateway.app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    lifecycle: gateway.lifecycle,
    answerHalfClosed: true, // as gateway/src/main.ts
  });
  gatewayUrl = gatewayServer.url;
  const identityDb = createKnex(identity.url, { poolMax: 2 });

  return {
    gatewayUrl,
    serviceUrls,
    gateway,
    config,
    identityDb,
    polls: { db: pollsDb, broker: pollsBroker },
    eventsDb: eventsKnex,
    databaseUrls: { collection: collection.url, events: events.url },
    collection: { db: collectionKnex, blobs: collectionBlobs },
    stop: async () => {
      await gatewayServer.stop();
      await gateway.close();
      await Promise.all(servers.map((s) => s.stop()));
      await Promise.all([collectionKnex.destroy(), eventsKnex.destroy(), identityDb.destroy()]);
      await pollsApp.close();
      await pollsRelay.stop();
      await pollsBroker.close();
      await redis.close();
      await pollsDb.dropDatabase().catch(() => undefined);
      await mongo.close();
      await Promise.all(dbs.map((d) => d.drop()));
    },
  };
}
