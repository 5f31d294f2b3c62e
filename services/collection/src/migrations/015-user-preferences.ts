import type { Knex } from 'knex';

/**
 * The users projection keeps each user's language and time zone (issue 32), from the gateway's
 * `user.created` / `user.updated` events, for e-mails in the user's language and local time.
 * Null: unknown (never chosen, or the user seen only in JWT claims).
 */
export const userPreferences = {
  name: '015-user-preferences',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('users', (t) => {
      t.text('language');
      t.text('time_zone');
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('users', (t) => {
      t.dropColumns('language', 'time_zone');
    });
  },
};
