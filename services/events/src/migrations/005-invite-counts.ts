import type { Knex } from 'knex';

/**
 * The statement trigger's function of this migration: each statement's change of active and
 * present invites per event, from its transition tables, into the row of its transaction's shard.
 * Exported for 009-gates-parties, whose `down` puts it back (009 counts seats instead).
 */
export const INVITE_COUNTS_STATEMENT = `
  CREATE OR REPLACE FUNCTION invite_counts_statement() RETURNS trigger AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO invite_counts (event_id, shard, total, present)
      SELECT event_id, (txid_current() % 8)::smallint,
             count(*) FILTER (WHERE revoked_at IS NULL),
             count(*) FILTER (WHERE presence AND revoked_at IS NULL)
      FROM new_rows GROUP BY event_id ORDER BY event_id
      ON CONFLICT (event_id, shard) DO UPDATE
        SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present;
    ELSIF TG_OP = 'DELETE' THEN
      INSERT INTO invite_counts (event_id, shard, total, present)
      SELECT event_id, (txid_current() % 8)::smallint,
             -count(*) FILTER (WHERE revoked_at IS NULL),
             -count(*) FILTER (WHERE presence AND revoked_at IS NULL)
      FROM old_rows GROUP BY event_id ORDER BY event_id
      ON CONFLICT (event_id, shard) DO UPDATE
        SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present;
    ELSE
      INSERT INTO invite_counts (event_id, shard, total, present)
      SELECT event_id, (txid_current() % 8)::smallint, sum(total), sum(present)
      FROM (
        SELECT event_id, (revoked_at IS NULL)::int AS total, (presence AND revoked_at IS NULL)::int AS present
        FROM new_rows
        UNION ALL
        SELECT event_id, -(revoked_at IS NULL)::int, -(presence AND revoked_at IS NULL)::int
        FROM old_rows
      ) AS change
      GROUP BY event_id
      HAVING sum(total) <> 0 OR sum(present) <> 0
      ORDER BY event_id
      ON CONFLICT (event_id, shard) DO UPDATE
        SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present;
    END IF;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
`;

/**
 * Attendance counters per event (docs/events.md, "Statistics"): `GET .../stats` and the live
 * attendance page's stats (not its arrivals per window) read `invite_counts` (a few rows per event) instead of counting the event's
 * invites on every read. Counting 100,000 invites cost PostgreSQL about 14 ms of CPU a read, so
 * the scanners of a 100,000-guest venue (84 reads/s) needed more than a core for it alone
 * (docs/scaling.md, "Plan 2").
 *
 * - Statement-level triggers on `invites` (insert, update, delete) add each statement's change
 *   per event from its transition tables: the group-committed scans of one statement make one
 *   upsert (a CSV import, which adds its rows one by one, one per row). An update that changes
 *   no count (a renamed invitee) writes nothing.
 * - The row a transaction adds to is its transaction id modulo 8 (as `submission_counts` does),
 *   so concurrent check-ins of one event rarely wait on each other's counter row.
 * - The counters are written in the transaction of the change: a read sees exactly the committed
 *   check-ins, in one snapshot, as the count did.
 * - `total` counts the active (not revoked) invites, `present` the active ones present.
 */
export const inviteCounts = {
  name: '005-invite-counts',
  async up(knex: Knex): Promise<void> {
    await knex.raw(`
      CREATE TABLE invite_counts (
        event_id uuid NOT NULL,
        shard smallint NOT NULL,
        total bigint NOT NULL,
        present bigint NOT NULL,
        PRIMARY KEY (event_id, shard)
      );
    `);
    await knex.raw(INVITE_COUNTS_STATEMENT);
    await knex.raw(`
      CREATE TRIGGER invites_count_insert AFTER INSERT ON invites
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invite_counts_statement();
      CREATE TRIGGER invites_count_update AFTER UPDATE ON invites
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION invite_counts_statement();
      CREATE TRIGGER invites_count_delete AFTER DELETE ON invites
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invite_counts_statement();
    `);
    // The invites already there: counted once, with writers held off until the triggers count.
    await knex.raw('LOCK TABLE invites IN SHARE MODE');
    await knex.raw(`
      INSERT INTO invite_counts (event_id, shard, total, present)
      SELECT event_id, 0, count(*) FILTER (WHERE revoked_at IS NULL),
             count(*) FILTER (WHERE presence AND revoked_at IS NULL)
      FROM invites GROUP BY event_id
      ON CONFLICT (event_id, shard) DO UPDATE
        SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present
    `);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw(`
      DROP TRIGGER invites_count_insert ON invites;
      DROP TRIGGER invites_count_update ON invites;
      DROP TRIGGER invites_count_delete ON invites;
      DROP FUNCTION invite_counts_statement();
      DROP TABLE invite_counts;
    `);
  },
};
