import type { Knex } from 'knex';

/**
 * Export jobs (spec 2.1 export, 4.1): one row per requested export, its filters, progress,
 * heartbeat (a stale `running` job is picked up again), file in the blob store and expiry
 * (docs/collection.md, "Exports").
 */
export const exportsTable = {
  name: '004-exports',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('exports', (t) => {
      t.uuid('id').primary();
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.integer('workspace_id').notNullable();
      t.integer('requested_by').notNullable();
      t.text('format').notNullable();
      t.jsonb('filters').notNullable().defaultTo('{}');
      t.text('status').notNullable().defaultTo('queued');
      t.bigInteger('rows_written').notNullable().defaultTo(0);
      t.bigInteger('total_rows');
      t.integer('attempts').notNullable().defaultTo(0);
      t.text('error');
      t.text('blob_key');
      t.timestamp('heartbeat_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('started_at', { useTz: true });
      t.timestamp('finished_at', { useTz: true });
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('file_deleted_at', { useTz: true });
      t.index(['status', 'heartbeat_at']);
      t.index(['expires_at']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists('exports');
  },
};
