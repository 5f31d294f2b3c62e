import type { Knex } from 'knex';
import { GroupCommit, statementBatches } from '@fieldhouse/group-commit';
import type { Logger } from '@fieldhouse/logger';
import {
  insertSubmission,
  SUBMISSION_COLUMNS,
  type NewSubmission,
  type SubmissionRow,
} from './submissions.ts';

/** Inserts a plain submission (see {@link submissionGroupCommit}). */
export type SubmissionWriter = (s: NewSubmission) => Promise<SubmissionRow>;

/**
 * Group commit of plain submissions (docs/collection.md, "Submissions"; @fieldhouse/group-commit):
 * submissions that arrive while earlier ones are being written wait (no timer: only while the
 * database is busy) and are inserted together, with their history rows, by one statement: one
 * round trip and one commit for up to 200, at most two statements in flight per process. Each
 * caller gets its own row back, exactly as {@link insertSubmission} returns it. If the batch
 * statement fails because of one row or a clash with another transaction (retryAlone of @fieldhouse/group-commit),
 * nothing of it was written and each submission is inserted alone, so one bad row fails only
 * its own request; any other error (connection lost...) fails the batch's requests.
 *
 * Only for the plain case, which has no rule to check under a lock (no submission limit, one
 * per collector, photos or e-mail: those take their own transaction).
 */
export function submissionGroupCommit(db: Knex, logger: Logger): SubmissionWriter {
  const write = statementBatches<NewSubmission, SubmissionRow, SubmissionRow>({
    statement: async (batch) =>
      (await db.raw(BATCH_SQL, [JSON.stringify(batch.map((s, ord) => ({ ...s, ord })))])).rows as Array<
        SubmissionRow & { ord: number }
      >,
    alone: (s) => insertSubmission(db, s),
    fromRow: ({ ord: _ord, ...row }: SubmissionRow & { ord?: number }) => row,
    onFallback: (err, submissions) =>
      logger.warn('submission batch failed: each submission inserted alone', { err, submissions }),
  });
  const commit = new GroupCommit(write, { maxBatch: 200, maxInFlight: 2 });
  return (s) => commit.submit(s);
}

const COLUMNS = SUBMISSION_COLUMNS.map((c) => `s.${c}`).join(', ');

/**
 * {@link insertSubmission} over a JSON array of submissions: ids are drawn first, in array order,
 * so each returned row is matched to its request by `ord`.
 */
const BATCH_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset(?::jsonb) AS r(ord int, project_id int, form_version_id int,
    collector_id int, status text, latitude float8, longitude float8, altitude float8,
    precision float8, data jsonb, search_text text, consent boolean)),
ids AS (
  SELECT ord, nextval(pg_get_serial_sequence('submissions', 'id')) AS id FROM input),
s AS (
  INSERT INTO submissions (id, project_id, form_version_id, collector_id, status, latitude,
    longitude, altitude, precision, data, search_text, consent, submitted_at)
  SELECT ids.id, i.project_id, i.form_version_id, i.collector_id, i.status, i.latitude,
    i.longitude, i.altitude, i.precision, i.data, i.search_text, i.consent,
    CASE WHEN i.status = 'submitted' THEN now() END
  FROM input i JOIN ids USING (ord)
  ORDER BY ids.id
  RETURNING ${SUBMISSION_COLUMNS.join(', ')}),
h AS (
  INSERT INTO submission_history (submission_id, from_status, to_status, user_id)
  SELECT id, NULL, status, collector_id FROM s)
SELECT ids.ord, ${COLUMNS} FROM s JOIN ids USING (id)`;
