import type { Knex } from 'knex';

/** Analyses of a project (spec 4.1): a name, list filters and chart definitions (JSONB). */
export const analyses = {
  name: '005-analyses',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('analyses', (t) => {
      t.increments('id').primary();
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.text('name').notNullable();
      t.text('description');
      t.jsonb('filters').notNullable().defaultTo('{}');
      t.jsonb('charts').notNullable().defaultTo('[]');
      t.integer('created_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['project_id', 'id']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists('analyses');
  },
};
