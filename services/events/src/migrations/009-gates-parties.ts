import type { Knex } from 'knex';
import { INVITE_COUNTS_STATEMENT } from './005-invite-counts.ts';

/**
 * Gates, parties and held invitations (issue 36; docs/events.md, "Gates", "Parties", "CSV import").
 *
 * - `invites.seats` (1 to 100): how many people the code admits; `seat_names` their optional
 *   names; `arrived` how many of them came in (0 to seats; `presence` is `arrived > 0`);
 *   `last_people` how many the latest admission let in (set by the admitting UPDATE itself, so
 *   its RETURNING says how many a scan admitted without reading first); `email_held` an
 *   invitation whose e-mail the importer chose to send later.
 * - `checkin_gates`: an event's check-in lists. An event without any has one implicit entrance
 *   (the invite's own `arrived`), which is what every scan without `gate_id` uses.
 * - `gate_presence`: per invite and gate, how many of its people are inside now, how many
 *   entries and exits were scanned there, and the latest entry (when and by whom). Its
 *   conditional upserts and updates are what make a scan count once.
 * - `gate_counts`: inside/entries/exits per gate, kept by statement-level triggers on
 *   `gate_presence` in the transaction of each scan (on one of 8 rows chosen by the transaction
 *   id, as `invite_counts`).
 * - `attendance_log` gains the gate, the direction and the number of people of each scan.
 * - `scanner_devices.gate_id`: the one gate a device scans at (null: the implicit entrance).
 * - `invite_counts` now counts people: `total` = seats, `present` = arrived (active invites).
 */
export const gatesParties = {
  name: '009-gates-parties',
  async up(knex: Knex): Promise<void> {
    await knex.raw(`
      ALTER TABLE invites
        ADD COLUMN seats integer NOT NULL DEFAULT 1,
        ADD COLUMN seat_names jsonb,
        ADD COLUMN arrived integer NOT NULL DEFAULT 0,
        ADD COLUMN last_people integer,
        ADD COLUMN email_held boolean NOT NULL DEFAULT false;
      UPDATE invites SET arrived = 1 WHERE presence;
      ALTER TABLE invites
        ADD CONSTRAINT invites_seats CHECK (seats BETWEEN 1 AND 100),
        ADD CONSTRAINT invites_arrived CHECK (arrived BETWEEN 0 AND seats);
      CREATE INDEX invites_event_held ON invites (event_id) WHERE email_held;

      CREATE TABLE checkin_gates (
        id uuid PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        invite_types text[] NOT NULL DEFAULT '{}',
        scan_exits boolean NOT NULL DEFAULT false,
        allow_reentry boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX checkin_gates_event_name ON checkin_gates (event_id, lower(name));

      CREATE TABLE gate_presence (
        invite_id uuid NOT NULL REFERENCES invites (id) ON DELETE CASCADE,
        gate_id uuid NOT NULL REFERENCES checkin_gates (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        seats integer NOT NULL,
        inside integer NOT NULL CHECK (inside >= 0 AND inside <= seats),
        entries integer NOT NULL CHECK (entries >= 0),
        exits integer NOT NULL CHECK (exits >= 0),
        last_people integer NOT NULL,
        last_entry_at timestamptz,
        last_entry_by varchar(255),
        last_exit_at timestamptz,
        PRIMARY KEY (invite_id, gate_id)
      );
      CREATE INDEX gate_presence_gate ON gate_presence (gate_id);

      CREATE TABLE gate_counts (
        gate_id uuid NOT NULL REFERENCES checkin_gates (id) ON DELETE CASCADE,
        shard smallint NOT NULL,
        event_id uuid NOT NULL,
        inside bigint NOT NULL,
        entries bigint NOT NULL,
        exits bigint NOT NULL,
        PRIMARY KEY (gate_id, shard)
      );
      CREATE INDEX gate_counts_event ON gate_counts (event_id);

    `);
    // One function per operation (an INSERT trigger has no old rows, a DELETE none new). Rows of
    // a gate being deleted are not counted: the gate and its counts go (cascade).
    await knex.raw(`
      CREATE FUNCTION gate_counts_insert() RETURNS trigger AS $$
      BEGIN
        INSERT INTO gate_counts (gate_id, shard, event_id, inside, entries, exits)
        SELECT gate_id, (txid_current() % 8)::smallint, event_id, sum(inside), sum(entries), sum(exits)
        FROM new_rows GROUP BY gate_id, event_id ORDER BY gate_id
        ON CONFLICT (gate_id, shard) DO UPDATE SET inside = gate_counts.inside + EXCLUDED.inside,
          entries = gate_counts.entries + EXCLUDED.entries, exits = gate_counts.exits + EXCLUDED.exits;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;
      CREATE FUNCTION gate_counts_delete() RETURNS trigger AS $$
      BEGIN
        INSERT INTO gate_counts (gate_id, shard, event_id, inside, entries, exits)
        SELECT gate_id, (txid_current() % 8)::smallint, event_id, -sum(inside), -sum(entries), -sum(exits)
        FROM old_rows WHERE EXISTS (SELECT 1 FROM checkin_gates g WHERE g.id = old_rows.gate_id)
        GROUP BY gate_id, event_id ORDER BY gate_id
        ON CONFLICT (gate_id, shard) DO UPDATE SET inside = gate_counts.inside + EXCLUDED.inside,
          entries = gate_counts.entries + EXCLUDED.entries, exits = gate_counts.exits + EXCLUDED.exits;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;
      CREATE FUNCTION gate_counts_update() RETURNS trigger AS $$
      BEGIN
        INSERT INTO gate_counts (gate_id, shard, event_id, inside, entries, exits)
        SELECT gate_id, (txid_current() % 8)::smallint, event_id, sum(inside), sum(entries), sum(exits)
        FROM (
          SELECT gate_id, event_id, inside, entries, exits FROM new_rows
          UNION ALL
          SELECT gate_id, event_id, -inside, -entries, -exits FROM old_rows
        ) AS change
        GROUP BY gate_id, event_id
        HAVING sum(inside) <> 0 OR sum(entries) <> 0 OR sum(exits) <> 0
        ORDER BY gate_id
        ON CONFLICT (gate_id, shard) DO UPDATE SET inside = gate_counts.inside + EXCLUDED.inside,
          entries = gate_counts.entries + EXCLUDED.entries, exits = gate_counts.exits + EXCLUDED.exits;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER gate_presence_count_insert AFTER INSERT ON gate_presence
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION gate_counts_insert();
      CREATE TRIGGER gate_presence_count_update AFTER UPDATE ON gate_presence
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
        EXECUTE FUNCTION gate_counts_update();
      CREATE TRIGGER gate_presence_count_delete AFTER DELETE ON gate_presence
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION gate_counts_delete();

      ALTER TABLE attendance_log
        ADD COLUMN gate_id uuid,
        ADD COLUMN direction varchar(5),
        ADD COLUMN people integer NOT NULL DEFAULT 1;
      CREATE INDEX attendance_log_event_gate ON attendance_log (event_id, scanned_at) WHERE direction IS NOT NULL;

      ALTER TABLE scanner_devices ADD COLUMN gate_id uuid REFERENCES checkin_gates (id) ON DELETE SET NULL;
    `);
    // invite_counts counts people from now on: seats and arrived (equal to the old counts while
    // every invite has one seat and arrived = presence, as set above).
    await knex.raw(`
      CREATE OR REPLACE FUNCTION invite_counts_statement() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO invite_counts (event_id, shard, total, present)
          SELECT event_id, (txid_current() % 8)::smallint,
                 coalesce(sum(seats) FILTER (WHERE revoked_at IS NULL), 0),
                 coalesce(sum(arrived) FILTER (WHERE revoked_at IS NULL), 0)
          FROM new_rows GROUP BY event_id ORDER BY event_id
          ON CONFLICT (event_id, shard) DO UPDATE
            SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO invite_counts (event_id, shard, total, present)
          SELECT event_id, (txid_current() % 8)::smallint,
                 -coalesce(sum(seats) FILTER (WHERE revoked_at IS NULL), 0),
                 -coalesce(sum(arrived) FILTER (WHERE revoked_at IS NULL), 0)
          FROM old_rows GROUP BY event_id ORDER BY event_id
          ON CONFLICT (event_id, shard) DO UPDATE
            SET total = invite_counts.total + EXCLUDED.total, present = invite_counts.present + EXCLUDED.present;
        ELSE
          INSERT INTO invite_counts (event_id, shard, total, present)
          SELECT event_id, (txid_current() % 8)::smallint, sum(total), sum(present)
          FROM (
            SELECT event_id, CASE WHEN revoked_at IS NULL THEN seats ELSE 0 END AS total,
                   CASE WHEN revoked_at IS NULL THEN arrived ELSE 0 END AS present
            FROM new_rows
            UNION ALL
            SELECT event_id, -CASE WHEN revoked_at IS NULL THEN seats ELSE 0 END,
                   -CASE WHEN revoked_at IS NULL THEN arrived ELSE 0 END
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
    `);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw(INVITE_COUNTS_STATEMENT);
    await knex.raw(`
      ALTER TABLE scanner_devices DROP COLUMN gate_id;
      DROP INDEX attendance_log_event_gate;
      ALTER TABLE attendance_log DROP COLUMN gate_id, DROP COLUMN direction, DROP COLUMN people;
      DROP TABLE gate_counts;
      DROP TABLE gate_presence;
      DROP FUNCTION gate_counts_insert();
      DROP FUNCTION gate_counts_update();
      DROP FUNCTION gate_counts_delete();
      DROP TABLE checkin_gates;
      ALTER TABLE invites DROP COLUMN seats, DROP COLUMN seat_names, DROP COLUMN arrived,
        DROP COLUMN last_people, DROP COLUMN email_held;
    `);
  },
};
