import type { Knex } from 'knex';

/**
 * Export options (docs/collection.md, "Exports"): `{header: "names" | "labels",
 * choice_columns: boolean}`, kept with the job so a restarted job writes the same file.
 */
export const exportOptions = {
  name: '006-export-options',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => {
      t.jsonb('options').notNullable().defaultTo('{}');
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('exports', (t) => {
      t.dropColumn('options');
    });
  },
};
