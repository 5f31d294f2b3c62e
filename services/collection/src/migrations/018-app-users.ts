import type { Knex } from 'knex';

/**
 * App users and OpenRosa submissions (issue 35; docs/collection.md, "ODK Collect and Enketo"):
 * - `app_users`: a project's app users, as ODK Central has them. The key is stored only as its
 *   SHA-256 (`key_hash`, unique: the lookup of a key); `revoked_at` set by a revocation.
 * - `openrosa_instances`: the `meta/instanceID` of every submission that came over OpenRosa,
 *   with the SHA-256 of its XML and the app user that sent it. The primary key (project,
 *   instanceID) is the idempotency key: the same instance twice is stored once.
 */
export const appUsers = {
  name: '018-app-users',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('app_users', (t) => {
      t.increments('id').primary();
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.text('display_name').notNullable();
      t.text('key_hash').notNullable().unique();
      t.integer('created_by');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('revoked_at', { useTz: true });
      t.index(['project_id']);
    });
    await knex.schema.createTable('openrosa_instances', (t) => {
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.text('instance_id').notNullable();
      t.bigInteger('submission_id').notNullable().references('submissions.id').onDelete('CASCADE');
      t.text('xml_sha256').notNullable();
      t.integer('app_user_id').references('app_users.id').onDelete('SET NULL');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['project_id', 'instance_id']);
      t.index(['submission_id']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('openrosa_instances');
    await knex.schema.dropTable('app_users');
  },
};
