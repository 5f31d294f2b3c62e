import type { Knex } from 'knex';

/**
 * `submission_versions`: one row per edit of a submission's data or location once it was sent
 * (issue 32; docs/collection.md, "Editing a submission and its versions"), written in the edit's
 * transaction: its number (1 for the first edit, unique per submission), who made it and when,
 * the answers that changed (`changes`: `[{field_uuid, type, before, after}]`) and the location
 * before and after when it changed (`location`: `{before, after}` of
 * `{latitude, longitude, altitude, precision}`, else null). Gone with its submission.
 */
export const submissionVersions = {
  name: '014-submission-versions',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('submission_versions', (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('submission_id').notNullable().references('submissions.id').onDelete('CASCADE');
      t.integer('number').notNullable();
      t.integer('user_id');
      t.jsonb('changes').notNullable();
      t.jsonb('location');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['submission_id', 'number']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('submission_versions');
  },
};
