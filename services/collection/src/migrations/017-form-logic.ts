import type { Knex } from 'knex';

/**
 * The form model of issue 34 (docs/collection.md, "Form versions and fields"):
 * - `fields.parent`: the name of the `group` or `repeat` containing the field (null: top level);
 * - `fields.logic`: the field's logic and display properties as one JSONB object (`relevant`,
 *   `constraint`, `constraint_message`, `required_if`, `required_message`, `calculation`,
 *   `default`, `read_only`, `choice_filter`, `hint`, `appearance`, `repeat_count`, `min_repeats`,
 *   `max_repeats`; absent keys are unset), read and written whole with the field;
 * - `fields.translations`: the texts in the version's other languages
 *   (`{"fr": {"label": "...", "hint": "..."}}`);
 * - `form_versions.languages` (JSONB array of BCP 47 codes) and `default_language`.
 * Every existing row keeps working: defaults are a top-level field without logic in a
 * one-language version.
 */
export const formLogic = {
  name: '017-form-logic',
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('fields', (t) => {
      t.text('parent');
      t.jsonb('logic').notNullable().defaultTo('{}');
      t.jsonb('translations').notNullable().defaultTo('{}');
    });
    await knex.schema.alterTable('form_versions', (t) => {
      t.jsonb('languages').notNullable().defaultTo('[]');
      t.text('default_language');
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('fields', (t) => {
      t.dropColumns('parent', 'logic', 'translations');
    });
    await knex.schema.alterTable('form_versions', (t) => {
      t.dropColumns('languages', 'default_language');
    });
  },
};
