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
