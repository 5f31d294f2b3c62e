import type { Knex } from 'knex';

/**
 * `GET /projects/{id}/exports` lists a project's jobs newest first (a viewer's filtered to
 * their own): an index on (project_id, created_at) serves both without a sort.
 */
export const exportsByProject = {
  name: '011-exports-by-project',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => t.index(['project_id', 'created_at']));
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => t.dropIndex(['project_id', 'created_at']));
  },
};
