import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Creates the SQL helpers of a PostgreSQL service's webhook triggers (docs/webhooks.md, "How
 * events are captured"):
 * - `webhook_iso(timestamptz)`: the time as JavaScript's `toISOString` writes it;
 * - `webhook_emit(kind, scope, data)`: writes the event to the `outbox` table as the envelope
 *   `{id, type: "webhook.<kind>", source, time, data: {scope, data}}` and notifies the relay
 *   (`NOTIFY outbox`, sent at commit), so it is published at once.
 * A service's triggers call `webhook_emit` in the transaction of the change, only when an active
 * subscription of the scope takes the kind (see {@link subscribedSql}).
 */
export async function createWebhookEmitter(knex: Knex, source: string): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION webhook_iso(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    $$`);
  await knex.raw(`
    CREATE FUNCTION webhook_emit(kind text, scope jsonb, data jsonb) RETURNS void LANGUAGE sql AS $$
      INSERT INTO outbox (exchange, message) VALUES ('${source}', jsonb_build_object(
        'id', gen_random_uuid(), 'type', 'webhook.' || kind, 'source', '${source}',
        'time', webhook_iso(clock_timestamp()), 'data', jsonb_build_object('scope', scope, 'data', data)));
      SELECT pg_notify('outbox', '');
    $$`);
}

/** Drops what {@link createWebhookEmitter} made. */
export async function dropWebhookEmitter(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS webhook_emit(text, jsonb, jsonb)');
  await knex.raw('DROP FUNCTION IF EXISTS webhook_iso(timestamptz)');
}

/**
 * The SQL condition "an active subscription takes `kind` where `condition` holds" (on
 * `webhook_subscriptions` aliased `s`), for a trigger's WHERE clause; `kind` is an SQL
 * expression (`'invite.created'` quoted, or a column).
 */
export const subscribedSql = (kind: string, condition: string): string =>
  `EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.active AND ${kind} = ANY(s.events) AND ${condition})`;

/**
 * The first statement of a trigger function: return at once when no active subscription
 * anywhere takes any of `kinds`, so writes pay one index-free probe of a small table per
 * statement, and nothing per row, while nobody subscribes.
 */
export const unlessSubscribedSql = (kinds: string[]): string =>
  `IF NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE active AND events && ARRAY[${kinds
    .map((k) => `'${k}'`)
    .join(', ')}]::text[]) THEN RETURN NULL; END IF;`;

/** One kind a generated trigger emits: the rows it reads and the SQL of the scope and the payload. */
export interface TriggerEmit {
  /** The webhook kind. */
  kind: string;
  /** The rows: a `FROM` list over the transition tables (`new_rows n JOIN projects p ON ...`). */
  from: string;
  /** Which of them change this kind (SQL condition), if not all. */
  where?: string;
  /** The condition on the subscription `s` that it reaches (`s.event_id = n.event_id`). */
  reaches: string;
  /** The scope (jsonb SQL) the webhook worker matches subscriptions by. */
  scope: string;
  /** The payload (jsonb SQL): libs/messaging `Changes.sql(kind)`, generated from the list of changes. */
  data: string;
  /** The order the messages are written in (SQL), if any. */
  orderBy?: string;
}

/** A statement-level trigger whose function emits webhooks (see {@link webhookTriggerSql}). */
export interface WebhookTrigger {
  /** The trigger's name; its function is `webhook_<name>`. */
  name: string;
  table: string;
  on: 'INSERT' | 'UPDATE' | 'DELETE';
  /** Its transition tables: `NEW TABLE AS new_rows`, `OLD TABLE AS old_rows NEW TABLE AS new_rows`. */
  referencing: string;
  emits: TriggerEmit[];
}

/**
 * The SQL of a generated webhook trigger (docs/webhooks.md, "How events are captured"): its
 * function (return at once when no active subscription takes any of its kinds, then one
 * `webhook_emit` per row of each kind that a subscription of the scope takes), and the
 * statement-level trigger calling it. The statements replace what a previous version made.
 */
export function webhookTriggerSql(trigger: WebhookTrigger): string[] {
  const fn = `webhook_${trigger.name}`;
  const emits = trigger.emits.map(
    (e) =>
      `PERFORM webhook_emit('${e.kind}', ${e.scope}, ${e.data})
  FROM ${e.from}
  WHERE ${e.where ? `(${e.where}) AND ` : ''}${subscribedSql(`'${e.kind}'`, e.reaches)}${
    e.orderBy ? `\n  ORDER BY ${e.orderBy}` : ''
  };`,
  );
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${unlessSubscribedSql(trigger.emits.map((e) => e.kind))}
  ${emits.join('\n  ')}
  RETURN NULL;
END $$`,
    `DROP TRIGGER IF EXISTS ${trigger.name} ON ${trigger.table}`,
    `CREATE TRIGGER ${trigger.name} AFTER ${trigger.on} ON ${trigger.table} REFERENCING ${trigger.referencing}
FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  ];
}

const GENERATED_TABLE = 'generated_sql';

/**
 * Creates the table in which {@link installGeneratedTriggers} records what it installed: per
 * key, the hash of the generated SQL and the triggers it made.
 */
export async function createGeneratedSqlTable(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE ${GENERATED_TABLE} (
    key text PRIMARY KEY, hash text NOT NULL, triggers jsonb NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())`);
}

/**
 * The repeatable step of a service's migrations (libs/db `Migration.repeatable`): (re)creates
 * the generated webhook triggers `triggers` when their SQL differs from what is installed under
 * `key` (a SHA-256 of it, kept in `generated_sql`), dropping the triggers and functions the
 * previous version made first; nothing when it is the same. One transaction, under an advisory
 * lock, so two processes migrating at once install it once. A payload change in the list of
 * changes thus needs no migration. Resolves with whether it installed anything.
 */
export async function installGeneratedTriggers(
  knex: Knex,
  key: string,
  triggers: WebhookTrigger[],
): Promise<boolean> {
  const statements = triggers.flatMap(webhookTriggerSql);
  const hash = createHash('sha256').update(statements.join(';\n')).digest('hex');
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${GENERATED_TABLE}:${key}`]);
    const row = (await trx(GENERATED_TABLE).where({ key }).first()) as
      { hash: string; triggers: { name: string; table: string }[] } | undefined;
    if (row?.hash === hash) return false;
    for (const old of row?.triggers ?? []) {
      await trx.raw(`DROP TRIGGER IF EXISTS ${old.name} ON ${old.table}`);
      await trx.raw(`DROP FUNCTION IF EXISTS webhook_${old.name}()`);
    }
    for (const statement of statements) await trx.raw(statement);
    const made = JSON.stringify(triggers.map((tr) => ({ name: tr.name, table: tr.table })));
    await trx.raw(
      `INSERT INTO ${GENERATED_TABLE} (key, hash, triggers) VALUES (?, ?, ?::jsonb)
       ON CONFLICT (key) DO UPDATE SET hash = EXCLUDED.hash, triggers = EXCLUDED.triggers, installed_at = now()`,
      [key, hash, made],
    );
    return true;
  });
}
