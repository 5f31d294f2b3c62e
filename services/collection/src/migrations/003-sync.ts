import type { Knex } from 'knex';

/**
 * Offline synchronisation (spec 2.1 `/sync`): one row per synchronised item, identified by
 * (user, device_id, local_id), naming the submission it created and the `client_updated_at`
 * of the version last applied (docs/collection.md, "Offline synchronisation").
 */
export const sync = {
  name: '003-sync',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('sync_items', (t) => {
      t.integer('user_id').notNullable();
      t.text('device_id').notNullable();
      t.text('local_id').notNullable();
      t.integer('project_id').notNullable();
      t.bigInteger('submission_id').notNullable().references('submissions.id').onDelete('CASCADE');
      t.timestamp('client_updated_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('synced_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['user_id', 'device_id', 'local_id']);
      t.index(['submission_id']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists('sync_items');
  },
};
