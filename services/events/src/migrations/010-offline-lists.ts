import type { Knex } from 'knex';

/**
 * What door scanners need to decide offline (docs/events.md, "Scanners that decide offline"):
 *
 * - `invites.changed_xid` (`xid8`): the id of the last transaction that inserted or changed the
 *   invite, set by a row trigger on every insert and update (a check-in, a revocation, a rename:
 *   whatever wrote it). A scanner's cursor is a transaction-snapshot horizon (the `xmin` of
 *   `pg_current_snapshot()`): the changes since a cursor are the invites whose `changed_xid` is at
 *   or after it. Unlike a sequence, this never skips a change committed late: a transaction still
 *   running when a cursor is taken has an id at or after that cursor's `xmin`, so the next read
 *   finds it (some rows are sent twice; applying one is idempotent).
 * - `invite_deletions`: a deleted invite's id and event with the deleting transaction's id, so
 *   scanners that downloaded it forget it (its code answers `unknown_code`). Written by a statement
 *   trigger on `invites`, only while the event exists (deleting an event leaves no tombstones).
 * - Index `(event_id, changed_xid, id)` serves the changes feed; `(event_id, id)` the paged
 *   download (keyset on the id).
 */
export const offlineLists = {
  name: '010-offline-lists',
  async up(knex: Knex): Promise<void> {
    await knex.raw(`
      ALTER TABLE invites ADD COLUMN changed_xid xid8;
      UPDATE invites SET changed_xid = pg_current_xact_id();
      ALTER TABLE invites ALTER COLUMN changed_xid SET NOT NULL;

      CREATE FUNCTION invites_changed_xid() RETURNS trigger AS $$
      BEGIN
        NEW.changed_xid := pg_current_xact_id();
        RETURN NEW;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER invites_changed_xid BEFORE INSERT OR UPDATE ON invites
        FOR EACH ROW EXECUTE FUNCTION invites_changed_xid();

      CREATE INDEX invites_event_changes ON invites (event_id, changed_xid, id);
      CREATE INDEX invites_event_id ON invites (event_id, id);

      CREATE TABLE invite_deletions (
        event_id uuid NOT NULL,
        invite_id uuid NOT NULL,
        deleted_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        PRIMARY KEY (event_id, invite_id)
      );
      CREATE INDEX invite_deletions_event_xid ON invite_deletions (event_id, deleted_xid);

      CREATE FUNCTION invite_deletions_statement() RETURNS trigger AS $$
      BEGIN
        INSERT INTO invite_deletions (event_id, invite_id)
        SELECT o.event_id, o.id FROM old_rows o
        WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = o.event_id)
        ON CONFLICT (event_id, invite_id) DO UPDATE SET deleted_xid = EXCLUDED.deleted_xid;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER invites_deletions AFTER DELETE ON invites
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invite_deletions_statement();

      CREATE FUNCTION invite_deletions_event() RETURNS trigger AS $$
      BEGIN
        DELETE FROM invite_deletions d USING old_events o WHERE d.event_id = o.id;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER events_invite_deletions AFTER DELETE ON events
        REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE FUNCTION invite_deletions_event();
    `);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw(`
      DROP TRIGGER events_invite_deletions ON events;
      DROP FUNCTION invite_deletions_event();
      DROP TRIGGER invites_deletions ON invites;
      DROP FUNCTION invite_deletions_statement();
      DROP TABLE invite_deletions;
      DROP TRIGGER invites_changed_xid ON invites;
      DROP FUNCTION invites_changed_xid();
      DROP INDEX invites_event_id;
      DROP INDEX invites_event_changes;
      ALTER TABLE invites DROP COLUMN changed_xid;
    `);
  },
};
