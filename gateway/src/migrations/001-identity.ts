import type { Knex } from 'knex';
import { defineOutboxTable } from '@fieldhouse/messaging';

/** Users, personal access tokens (Sanctum-compatible), browser sessions and the identity outbox. */
export const identity = {
  name: '001-identity',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('users', (t) => {
      t.increments('id').primary();
      t.string('name', 255).notNullable();
      // Stored lower-cased: one account per address whatever the case it is typed in.
      t.string('email', 255).notNullable().unique();
      t.string('password_hash', 100).notNullable();
      t.timestamps(true, true);
    });
    await knex.schema.createTable('personal_access_tokens', (t) => {
      t.bigIncrements('id').primary();
      t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
      t.string('name', 255).notNullable();
      // SHA-256 hex of the secret part; the plain token is shown once and never stored.
      t.specificType('token_hash', 'char(64)').notNullable();
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.schema.createTable('sessions', (t) => {
      // SHA-256 hex of the cookie value.
      t.specificType('id_hash', 'char(64)').primary();
      t.integer('user_id').references('users.id').onDelete('CASCADE').index();
      t.string('csrf_token', 64).notNullable();
      t.string('ip', 64);
      t.string('user_agent', 512);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('last_activity_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('expires_at', { useTz: true }).notNullable().index();
    });
    await knex.schema.createTable('outbox', defineOutboxTable(knex));
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('outbox');
    await knex.schema.dropTable('sessions');
    await knex.schema.dropTable('personal_access_tokens');
    await knex.schema.dropTable('users');
  },
};
