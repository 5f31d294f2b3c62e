import type { Knex } from 'knex';

/**
 * Pending invitations to a workspace by e-mail (docs/collection.md, "Inviting by e-mail"): one
 * row per invitation, `email` lower-cased, `accepted_at`/`accepted_user_id` set when it became a
 * membership. At most one open (not accepted) invitation per workspace and address; the partial
 * index on `email` serves the lookup made when a user with that address appears.
 */
export const memberInvitations = {
  name: '013-member-invitations',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('workspace_invitations', (t) => {
      t.increments('id').primary();
      t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
      t.text('email').notNullable();
      t.text('role').notNullable();
      t.integer('invited_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('accepted_at', { useTz: true });
      t.integer('accepted_user_id');
    });
    await knex.raw(
      `CREATE UNIQUE INDEX workspace_invitations_open ON workspace_invitations (workspace_id, email)
       WHERE accepted_at IS NULL`,
    );
    await knex.raw(
      `CREATE INDEX workspace_invitations_email ON workspace_invitations (email) WHERE accepted_at IS NULL`,
    );
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('workspace_invitations');
  },
};
