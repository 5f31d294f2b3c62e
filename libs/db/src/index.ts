import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { redactCredentials } from '@fieldhouse/logger';

export type { Knex };

// Return BIGINT (count(*), bigserial ids) as JS numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface KnexOptions {
  /** Pool size; a service process needs few connections (PostgreSQL is the bottleneck, not the pool). */
  poolMax?: number;
}

/** A Knex instance for PostgreSQL with a bounded pool that starts empty. */
export function createKnex(url: string, opts: KnexOptions = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

/** The database name in a `postgres://` URL. */
function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`database URL has no database name: ${redactCredentials(url)}`);
  return name;
}

/**
 * Runs `fn` with a client connected to the server's `postgres` database (the database named
 * in `url` may not exist yet) and the name of that database.
 */
async function withAdminClient(url: string, fn: (client: pg.Client, name: string) => Promise<void>) {
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await fn(client, name);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database named in `url` if it does not exist. Safe to run concurrently (a lost
 * race is ignored).
 */
export function ensureDatabase(url: string): Promise<void> {
  return withAdminClient(url, async (client, name) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // duplicate_database: created meanwhile
    });
  });
}

/** Drops a database (tests, benchmarks), closing other sessions on it first. */
export function dropDatabase(url: string): Promise<void> {
  return withAdminClient(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  });
}

/**
 * One migration: a name that sorts in order, and its up and down steps. A `repeatable` one is
 * not recorded: its `up` runs at every {@link migrateLatest}, after the others, and decides
 * itself whether there is anything to do (e.g. generated SQL keyed by its hash).
 */
export interface Migration {
  name: string;
  up: (knex: Knex) => Promise<void>;
  down: (knex: Knex) => Promise<void>;
  repeatable?: boolean;
}

/**
 * Knex migration source over a static, ordered list of modules, so migrations run the same
 * from TypeScript sources and from the compiled `dist/`.
 */
class ListMigrationSource implements Knex.MigrationSource<Migration> {
  private readonly migrations: Migration[];

  constructor(migrations: Migration[]) {
    this.migrations = migrations;
  }

  getMigrations(): Promise<Migration[]> {
    return Promise.resolve(this.migrations);
  }

  getMigrationName(m: Migration): string {
    return m.name;
  }

  getMigration(m: Migration): Promise<Knex.Migration> {
    return Promise.resolve({ up: m.up, down: m.down });
  }
}

/**
 * Creates the database if missing, then applies every pending migration of `migrations`
 * (recorded in `knex_migrations`, locked so concurrent runs wait), then the repeatable steps.
 * Resolves with the names applied (repeatable steps not included).
 */
export async function migrateLatest(url: string, migrations: Migration[]): Promise<string[]> {
  await ensureDatabase(url);
  const knex = createKnex(url, { poolMax: 2 });
  try {
    const [, applied] = (await knex.migrate.latest({
      migrationSource: new ListMigrationSource(migrations.filter((m) => !m.repeatable)),
    })) as [number, string[]];
    for (const m of migrations) if (m.repeatable) await m.up(knex);
    return applied;
  } finally {
    await knex.destroy();
  }
}
export * from './listen.ts';

/**
 * A probe of the PostgreSQL server at `url` for a store watch (libs/http `StoreWatch`): one
 * connection of its own, outside the pool (a probe never waits behind the service's queries,
 * and a busy pool is not a hung server), running `SELECT 1` with a client-side limit of
 * `timeoutMs`. A failed or timed-out probe drops its connection; the next one reconnects.
 */
export function postgresProbe(
  url: string,
  timeoutMs = 1_000,
): { probe: () => Promise<void>; close: () => Promise<void> } {
  let client: pg.Client | undefined;
  const drop = () => {
    const c = client;
    client = undefined;
    c?.end().catch(() => undefined);
  };
  return {
    probe: async () => {
      try {
        if (!client) {
          const c = new pg.Client({
            connectionString: url,
            connectionTimeoutMillis: timeoutMs,
            query_timeout: timeoutMs,
          });
          c.on('error', () => (client === c ? drop() : undefined));
          await c.connect();
          client = c;
        }
        await client.query('SELECT 1');
      } catch (err) {
        drop();
        throw err;
      }
    },
    close: async () => drop(),
  };
}
