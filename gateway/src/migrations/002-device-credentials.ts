import type { Knex } from 'knex';

/**
 * Credentials of scanner devices (docs/identity.md, "Scanner devices"): issued once when a
 * device's setup code is redeemed, stored as the SHA-256 of the secret, bound to the device and
 * its event. Whether the device is still allowed (revocation) is the events service's check.
 */
export const deviceCredentials = {
  name: '002-device-credentials',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('device_credentials', (t) => {
      t.bigIncrements('id').primary();
      t.uuid('device_id').notNullable().unique();
      t.uuid('event_id').notNullable();
      t.string('device_name', 100).notNullable();
      t.specificType('token_hash', 'char(64)').notNullable();
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('device_credentials');
  },
};
