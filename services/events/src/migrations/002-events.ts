import type { Knex } from 'knex';

/**
 * Area C tables: the users projection, events, their staff, invites, the presence/check-in
 * history and the check-in nonces (one result per client nonce).
 */
export const eventsSchema = {
  name: '002-events',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('users', (t) => {
      t.integer('id').primary();
      t.string('name', 255).notNullable();
      t.string('email', 320).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.raw('CREATE INDEX users_email_lower ON users (lower(email))');

    await knex.schema.createTable('events', (t) => {
      t.uuid('id').primary();
      t.integer('owner_id').notNullable().index();
      t.string('name', 255).notNullable();
      t.text('description').notNullable().defaultTo('');
      // As given by the client (no zone), and the same value as a timestamp for order and filters.
      t.string('start_date', 32).notNullable();
      t.string('end_date', 32);
      t.timestamp('start_at', { useTz: false }).notNullable().index();
      t.timestamp('end_at', { useTz: false });
      t.string('location', 500).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await knex.schema.createTable('event_staff', (t) => {
      t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE');
      t.integer('user_id').notNullable().index();
      t.integer('granted_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['event_id', 'user_id']);
    });

    await knex.schema.createTable('invites', (t) => {
      t.uuid('id').primary();
      t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE');
      t.string('nom', 255).notNullable();
      t.string('email', 320).notNullable();
      t.string('type_invite', 32).notNullable();
      t.string('code_unique', 32).notNullable().unique();
      t.boolean('presence').notNullable().defaultTo(false);
      t.timestamp('checked_in_at', { useTz: true });
      t.string('scanne_par', 255);
      t.timestamp('revoked_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('CREATE UNIQUE INDEX invites_event_email ON invites (event_id, lower(email))');
    await knex.raw('CREATE INDEX invites_event_nom ON invites (event_id, nom, id)');
    await knex.raw(
      'CREATE INDEX invites_event_presence ON invites (event_id) WHERE presence AND revoked_at IS NULL',
    );

    await knex.schema.createTable('attendance_log', (t) => {
      t.bigIncrements('id').primary();
      t.uuid('invite_id').notNullable().references('invites.id').onDelete('CASCADE').index();
      t.uuid('event_id').notNullable();
      t.string('action', 16).notNullable(); // presence | checkin
      t.boolean('presence').notNullable();
      t.boolean('previous').notNullable();
      t.string('scanne_par', 255);
      t.integer('user_id');
      t.string('user_name', 255);
      t.string('device', 255);
      t.string('nonce', 128);
      t.timestamp('scanned_at', { useTz: true }).notNullable();
      t.timestamp('recorded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await knex.schema.createTable('checkin_nonces', (t) => {
      t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE');
      t.string('nonce', 128).notNullable();
      t.integer('status').notNullable();
      t.jsonb('body').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['event_id', 'nonce']);
    });
  },
  async down(knex: Knex): Promise<void> {
    for (const table of ['checkin_nonces', 'attendance_log', 'invites', 'event_staff', 'events', 'users'])
      await knex.schema.dropTable(table);
  },
};
