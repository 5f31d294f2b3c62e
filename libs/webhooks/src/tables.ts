import type { Knex } from 'knex';

/**
 * Creates the webhook tables of a PostgreSQL service (its migration calls this; the scope
 * columns, such as `event_id` or `workspace_id`, are the service's):
 * - `webhook_subscriptions`: an endpoint URL, the event kinds it takes, its signing secret (and
 *   the previous one during a rotation's overlap), active or disabled with the reason, the count
 *   of deliveries failed in a row;
 * - `webhook_messages`: each event as it happened, its body frozen as the exact JSON sent;
 * - `webhook_deliveries`: one message to one subscription: status (`pending`, `succeeded`,
 *   `failed`), attempts, when the next is due, the lease of the job working on it, the last answer;
 * - `webhook_attempts`: every attempt with its answer status, duration, body start or error.
 */
export async function createWebhookTables(
  knex: Knex,
  addScope: (t: Knex.CreateTableBuilder) => void,
): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('id').primary();
    addScope(t);
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.string('description', 500);
    t.boolean('active').notNullable().defaultTo(true);
    t.text('secret').notNullable();
    t.text('previous_secret');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.integer('failure_streak').notNullable().defaultTo(0);
    t.string('disabled_reason', 20);
    t.timestamp('disabled_at', { useTz: true });
    t.integer('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('webhook_messages', (t) => {
    t.uuid('id').primary();
    t.string('kind', 100).notNullable();
    t.jsonb('scope').notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.uuid('message_id').notNullable().references('webhook_messages.id').onDelete('CASCADE');
    t.string('kind', 100).notNullable();
    t.string('status', 10).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('round_start').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.uuid('lock_token');
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('last_attempt_at', { useTz: true });
    t.integer('response_status');
    t.integer('duration_ms');
    t.text('response_body');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id', 'message_id']);
    t.index(['subscription_id', 'created_at']);
    t.index(['message_id']);
  });
  await knex.raw(
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  );
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE').index();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.integer('response_status');
    t.integer('duration_ms').notNullable();
    t.text('response_body');
    t.text('error');
  });
}

/** Drops what {@link createWebhookTables} made. */
export async function dropWebhookTables(knex: Knex): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_messages', 'webhook_subscriptions'])
    await knex.schema.dropTableIfExists(table);
}
