import type { Knex } from 'knex';

/**
 * Check-in nonces keep the scan's outcome (`{result, invite?, checked_in_at?, scanne_par?}`, the
 * domain's `CheckinOutcome`), not an HTTP status and body: a replay renders it again at the HTTP
 * edge, the same answer as the first. Rows stored before are converted: their body without the
 * problem document's members and `message` is that outcome, so they replay identically.
 */
export const checkinOutcomes = {
  name: '008-checkin-outcomes',
  async up(knex: Knex): Promise<void> {
    await knex.raw('ALTER TABLE checkin_nonces ADD COLUMN outcome jsonb');
    await knex.raw(
      `UPDATE checkin_nonces SET outcome = body - 'message' - 'type' - 'title' - 'status' - 'detail' - 'code'
       WHERE status <> 0`,
    );
    await knex.raw('ALTER TABLE checkin_nonces DROP COLUMN status, DROP COLUMN body');
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw(`ALTER TABLE checkin_nonces ADD COLUMN status integer NOT NULL DEFAULT 0,
      ADD COLUMN body jsonb NOT NULL DEFAULT '{}'`);
    // The answers the code before this migration stored (domain/problems.ts's sentences).
    await knex.raw(`
      UPDATE checkin_nonces SET
        status = CASE outcome->>'result' WHEN 'checked_in' THEN 200 WHEN 'unknown_code' THEN 404
          WHEN 'wrong_event' THEN 422 ELSE 409 END,
        body = CASE outcome->>'result'
          WHEN 'checked_in' THEN outcome || jsonb_build_object('message', (outcome->'invite'->>'nom') || ' is checked in.')
          ELSE outcome || jsonb_build_object(
            'type', 'urn:fieldhouse:problem:' || replace(outcome->>'result', '_', '-'),
            'title', CASE outcome->>'result' WHEN 'unknown_code' THEN 'Not Found'
              WHEN 'wrong_event' THEN 'Unprocessable Entity' ELSE 'Conflict' END,
            'status', CASE outcome->>'result' WHEN 'unknown_code' THEN 404 WHEN 'wrong_event' THEN 422 ELSE 409 END,
            'code', outcome->>'result') || (SELECT jsonb_build_object('detail', d, 'message', d) FROM (SELECT
              CASE outcome->>'result'
                WHEN 'already_checked_in' THEN (outcome->'invite'->>'nom') || ' was already checked in at ' ||
                  (outcome->>'checked_in_at') || '.'
                WHEN 'unknown_code' THEN 'No invite has this code.'
                WHEN 'wrong_event' THEN 'This code belongs to another event.'
                ELSE 'The invite of ' || (outcome->'invite'->>'nom') || ' was revoked.' END AS d) x)
        END
      WHERE outcome IS NOT NULL`);
    await knex.raw('ALTER TABLE checkin_nonces DROP COLUMN outcome');
  },
};
