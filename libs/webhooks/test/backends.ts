import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createKnex, migrateLatest } from '@fieldhouse/db';
import {
  createWebhookTables,
  ensureWebhookIndexes,
  knexWebhookRepository,
  KnexWebhookStore,
  mongoWebhookRepository,
  MongoWebhookStore,
  type WebhookRepository,
  type WebhookStore,
} from '@fieldhouse/webhooks';
import { backingUrl, createTestDatabase } from '@fieldhouse/testkit';

/** A delivery log to run the worker on: its store, its repository, and how to drop it. */
export interface Backend {
  store: WebhookStore;
  repo: WebhookRepository;
  close: () => Promise<void>;
}

/** A PostgreSQL {@link Backend} and its database's URL (for a second connection pool). */
export interface PostgresBackend extends Backend {
  url: string;
}

/** A MongoDB {@link Backend} and its database's name (for a second client). */
export interface MongoBackend extends Backend {
  dbName: string;
}

/** PostgreSQL: the tables of `createWebhookTables`, scoped by a `tenant_id` column. */
export async function postgresBackend(): Promise<PostgresBackend> {
  const db = await createTestDatabase('webhooks');
  await migrateLatest(db.url, [
    {
      name: '001',
      up: (k) => createWebhookTables(k, (t) => t.integer('tenant_id').notNullable()),
      down: async () => undefined,
    },
  ]);
  const knex = createKnex(db.url);
  return {
    url: db.url,
    store: new KnexWebhookStore(knex, "s.tenant_id = (m.scope->>'tenant_id')::int"),
    repo: knexWebhookRepository(knex),
    close: async () => {
      await knex.destroy();
      await db.drop();
    },
  };
}

/** MongoDB (FerretDB unless MONGO_URL is set): the collections of `webhookCollections`, scoped by `tenant_id`. */
export async function mongoBackend(): Promise<MongoBackend> {
  const client = await MongoClient.connect(await backingUrl('mongo'));
  const db = client.db(`t_webhooks_${randomBytes(4).toString('hex')}`);
  await ensureWebhookIndexes(db, 'tenant_id');
  return {
    dbName: db.databaseName,
    store: new MongoWebhookStore(db, (scope) => ({ tenant_id: scope.tenant_id })),
    repo: mongoWebhookRepository(db),
    close: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

/** Both stores, to run a suite on each. */
export const BACKENDS = [
  ['PostgreSQL', postgresBackend],
  ['MongoDB', mongoBackend],
] as const;
