import type { Knex } from 'knex';

/**
 * Submission counters per statement (docs/collection.md, "Counters"):
 * - inserts and deletes bump `submission_counts` once per statement and (project, status, UTC
 *   day), from the statement's transition table, in key order, instead of once per row: a
 *   statement that inserts 200 submissions does one or two upserts, not 200;
 * - the shard is the writing transaction's id modulo 8, not a random number per row: one
 *   transaction takes one shard row per key, and a statement takes them in key order, so two
 *   transactions that write several submissions at once cannot lock two shards in opposite
 *   orders (with random shards they did, and PostgreSQL broke the deadlock after a second).
 * Row-level triggers remain for status changes (transition tables cannot go with `UPDATE OF`).
 */
export const countStatements = {
  name: '008-count-statements',
  async up(knex: Knex): Promise<void> {
    await knex.raw(`
      CREATE OR REPLACE FUNCTION submission_counts_bump(p int, s text, d date, delta int) RETURNS void AS $$
        INSERT INTO submission_counts (project_id, status, day, shard, n)
        VALUES (p, s, d, (txid_current() % 8)::smallint, delta)
        ON CONFLICT (project_id, status, day, shard) DO UPDATE SET n = submission_counts.n + delta;
      $$ LANGUAGE sql;

      CREATE FUNCTION submission_counts_statement() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO submission_counts (project_id, status, day, shard, n)
          SELECT project_id, status, (created_at AT TIME ZONE 'UTC')::date, (txid_current() % 8)::smallint, count(*)
          FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (project_id, status, day, shard) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
        ELSE
          INSERT INTO submission_counts (project_id, status, day, shard, n)
          SELECT project_id, status, (created_at AT TIME ZONE 'UTC')::date, (txid_current() % 8)::smallint, -count(*)
          FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (project_id, status, day, shard) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
        END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      DROP TRIGGER submissions_count_insert_delete ON submissions;
      CREATE TRIGGER submissions_count_insert AFTER INSERT ON submissions
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_counts_statement();
      CREATE TRIGGER submissions_count_delete AFTER DELETE ON submissions
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_counts_statement();
    `);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw(`
      DROP TRIGGER submissions_count_insert ON submissions;
      DROP TRIGGER submissions_count_delete ON submissions;
      DROP FUNCTION submission_counts_statement();
      CREATE TRIGGER submissions_count_insert_delete AFTER INSERT OR DELETE ON submissions
        FOR EACH ROW EXECUTE FUNCTION submission_counts_trigger();
      CREATE OR REPLACE FUNCTION submission_counts_bump(p int, s text, d date, delta int) RETURNS void AS $$
        INSERT INTO submission_counts (project_id, status, day, shard, n)
        VALUES (p, s, d, (floor(random() * 8))::smallint, delta)
        ON CONFLICT (project_id, status, day, shard) DO UPDATE SET n = submission_counts.n + delta;
      $$ LANGUAGE sql;
    `);
  },
};
