import type { Knex } from 'knex';

/**
 * Scanner devices (docs/events.md, "Scanner devices"): a named device of one event, set up once
 * with a setup code (only its SHA-256 is kept), revocable; and, in the history, the device that
 * made each change.
 */
export const scannerDevices = {
  name: '003-scanner-devices',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('scanner_devices', (t) => {
      t.uuid('id').primary();
      t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE').index();
      t.string('name', 100).notNullable();
      t.integer('created_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.string('setup_code_hash', 64).notNullable().unique();
      t.timestamp('setup_expires_at', { useTz: true }).notNullable();
      t.timestamp('set_up_at', { useTz: true });
      t.timestamp('last_seen_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
    });
    await knex.schema.alterTable('attendance_log', (t) => {
      t.uuid('scanner_device_id').index();
      // The latest check-ins of an event (attendance page).
      t.index(['event_id', 'id']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('attendance_log', (t) => {
      t.dropIndex(['event_id', 'id']);
      t.dropColumn('scanner_device_id');
    });
    await knex.schema.dropTable('scanner_devices');
  },
};
