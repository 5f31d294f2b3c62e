import type { Knex } from 'knex';
import type { DataEntry, Status } from '../domain/types.ts';

export interface SubmissionRow {
  id: number;
  project_id: number;
  form_version_id: number;
  collector_id: number | null;
  status: Status;
  latitude: number | null;
  longitude: number | null;
  altitude: number | null;
  precision: number | null;
  data: DataEntry[];
  consent: boolean | null;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
}

export interface HistoryRow {
  id: number;
  from_status: Status | null;
  to_status: Status;
  user_id: number | null;
  comment: string | null;
  created_at: Date;
}

/** The columns of a {@link SubmissionRow}, in table order (everything but `search_text`). */
export const SUBMISSION_COLUMNS = [
  'id',
  'project_id',
  'form_version_id',
  'collector_id',
  'status',
  'latitude',
  'longitude',
  'altitude',
  'precision',
  'data',
  'consent',
  'created_at',
  'updated_at',
  'submitted_at',
];

/** A submission to insert: its row without what the database sets, plus its search text. */
export type NewSubmission = Omit<SubmissionRow, 'id' | 'created_at' | 'updated_at' | 'submitted_at'> & {
  search_text: string;
};

/**
 * Inserts a submission and its first history entry (who created it, with which status) in one
 * statement: atomic on its own, so a plain insert needs no explicit transaction (one round
 * trip); inside a transaction it joins it.
 */
export async function insertSubmission(
  db: Knex | Knex.Transaction,
  s: NewSubmission,
): Promise<SubmissionRow> {
  const insert = db('submissions')
    .insert({
      ...s,
      data: JSON.stringify(s.data),
      submitted_at: s.status === 'submitted' ? db.fn.now() : null,
    })
    .returning(SUBMISSION_COLUMNS)
    .toSQL();
  const { rows } = (await db.raw(
    `WITH s AS (${insert.sql}),
     h AS (INSERT INTO submission_history (submission_id, from_status, to_status, user_id)
           SELECT id, NULL, status, collector_id FROM s)
     SELECT * FROM s`,
    insert.bindings,
  )) as { rows: SubmissionRow[] };
  return rows[0]!;
}

export const findSubmission = (
  db: Knex | Knex.Transaction,
  projectId: number,
  id: number,
): Promise<SubmissionRow | undefined> =>
  db('submissions').where({ project_id: projectId, id }).first(SUBMISSION_COLUMNS);

export const listHistory = (db: Knex, submissionId: number): Promise<HistoryRow[]> =>
  db('submission_history').where({ submission_id: submissionId }).orderBy('id');

/** Changes status and/or data, recording the status change (who, when, comment) in the history. */
export async function updateSubmission(
  trx: Knex.Transaction,
  s: SubmissionRow,
  change: {
    status?: Status;
    data?: DataEntry[];
    search_text?: string;
    coords?: Partial<Record<'latitude' | 'longitude' | 'altitude' | 'precision', number | null>>;
    userId: number;
    comment: string | null;
  },
): Promise<SubmissionRow> {
  const patch: Record<string, unknown> = { ...change.coords, updated_at: trx.fn.now() };
  if (change.data) {
    patch.data = JSON.stringify(change.data);
    patch.search_text = change.search_text ?? '';
  }
  if (change.status && change.status !== s.status) {
    patch.status = change.status;
    if (change.status === 'submitted') patch.submitted_at = trx.fn.now();
  }
  const [row] = (await trx('submissions')
    .where({ id: s.id })
    .update(patch)
    .returning(SUBMISSION_COLUMNS)) as [SubmissionRow];
  if (change.status && change.status !== s.status)
    await trx('submission_history').insert({
      submission_id: s.id,
      from_status: s.status,
      to_status: change.status,
      user_id: change.userId,
      comment: change.comment,
    });
  return row;
}

/** How many submissions a project has (every status), for `submission_limit`. */
export async function countProjectSubmissions(trx: Knex.Transaction, projectId: number): Promise<number> {
  const row = (await trx('submission_counts').where({ project_id: projectId }).sum({ n: 'n' }).first()) as {
    n: number | string | null;
  };
  return Number(row.n ?? 0);
}

export async function collectorHasSubmission(
  trx: Knex.Transaction,
  projectId: number,
  collectorId: number,
): Promise<boolean> {
  return Boolean(
    await trx('submissions').where({ project_id: projectId, collector_id: collectorId }).first('id'),
  );
}

export interface PhotoRow {
  id: string;
  submission_id: number;
  field_uuid: string;
  content_type: string;
  size: number;
  blob_key: string;
}

export const insertPhotos = async (trx: Knex.Transaction, photos: PhotoRow[]) => {
  if (photos.length) await trx('photos').insert(photos);
};

/**
 * Deletes one submission of a project; its history, photo rows and sync records go with it (the
 * foreign keys cascade), and the statement triggers update the counts and write
 * `submission.deleted` for webhooks. Resolves with the blob keys of its photos (the caller
 * deletes the bytes once committed), or undefined when it was not there.
 */
export async function deleteSubmission(
  trx: Knex.Transaction,
  projectId: number,
  id: number,
): Promise<string[] | undefined> {
  const keys = (await trx('photos').where({ submission_id: id }).pluck('blob_key')) as string[];
  const deleted = await trx('submissions').where({ project_id: projectId, id }).delete();
  return deleted ? keys : undefined;
}
