import type { Knex } from 'knex';

/**
 * The lease of a running export (docs/reliability.md, "Exports"): `lease_until` is set when a
 * worker claims the job and renewed while it runs; once it has passed, the job belongs to
 * nobody and the next delivery (or the sweep) takes it over. Running jobs of the old scheme
 * get the lease their heartbeat implied (60 s); the heartbeat column and its index go.
 */
export const exportLease = {
  name: '010-export-lease',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => {
      t.timestamp('lease_until', { useTz: true });
      t.index(['status', 'lease_until']);
    });
    await knex('exports')
      .where('status', 'running')
      .update({ lease_until: knex.raw(`coalesce(heartbeat_at, now()) + interval '60 seconds'`) });
    await knex.schema.alterTable('exports', (t) => {
      t.dropIndex(['status', 'heartbeat_at']);
      t.dropColumn('heartbeat_at');
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => {
      t.timestamp('heartbeat_at', { useTz: true });
      t.index(['status', 'heartbeat_at']);
    });
    await knex('exports').where('status', 'running').update({ heartbeat_at: knex.fn.now() });
    await knex.schema.alterTable('exports', (t) => {
      t.dropIndex(['status', 'lease_until']);
      t.dropColumn('lease_until');
    });
  },
};
