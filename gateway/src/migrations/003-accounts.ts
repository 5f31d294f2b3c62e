import type { Knex } from 'knex';

/**
 * Accounts (issue 32): each user's language, time zone and e-mail verification, and the
 * single-use links the gateway e-mails (password reset, e-mail verification), stored as the
 * SHA-256 of their secret only (docs/identity.md, "Accounts").
 */
export const accounts = {
  name: '003-accounts',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('users', (t) => {
      // `en` or `fr`; null: never chosen (e-mails then go out in English).
      t.string('language', 8);
      // An IANA time zone name (`Europe/Paris`); null: never chosen (UTC in e-mails).
      t.string('time_zone', 64);
      // When the current address was proven by its link; null: unverified.
      t.timestamp('email_verified_at', { useTz: true });
    });
    await knex.schema.createTable('account_links', (t) => {
      t.bigIncrements('id').primary();
      t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
      // `password_reset` or `email_verification`.
      t.string('purpose', 32).notNullable();
      // SHA-256 hex of the link's secret; the secret is only in the e-mail.
      t.specificType('token_hash', 'char(64)').notNullable().unique();
      // The address the link was sent to: a verification link proves this address only.
      t.string('email', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('expires_at', { useTz: true }).notNullable().index();
      // Set when the link is used (single use); also when a newer link of the same purpose replaces it.
      t.timestamp('used_at', { useTz: true });
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('account_links');
    await knex.schema.alterTable('users', (t) => {
      t.dropColumns('language', 'time_zone', 'email_verified_at');
    });
  },
};
