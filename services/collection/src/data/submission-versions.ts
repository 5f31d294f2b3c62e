import type { Knex } from 'knex';

/** One answer changed by an edit: the field and its value before and after (`null`: no answer). */
export interface AnswerChange {
  field_uuid: string;
  type: string;
  before: unknown;
  after: unknown;
}

/** A submission's own location: degrees and metres, each null when not recorded. */
export interface Location {
  latitude: number | null;
  longitude: number | null;
  altitude: number | null;
  precision: number | null;
}

/** An edit of a submission as stored (migration 014), with its author's name when known. */
export interface VersionRow {
  id: number;
  submission_id: number;
  /** 1 for the first edit of the submission, then 2, 3... */
  number: number;
  user_id: number | null;
  /** The author's name in the users projection; null when unknown to the service. */
  user_name: string | null;
  changes: AnswerChange[];
  location: { before: Location; after: Location } | null;
  created_at: Date;
}

/**
 * Records an edit of submission `submissionId`, numbered after its last one. Call it in the
 * edit's transaction, after the submission row was updated: that update holds the row's lock,
 * so two edits of one submission cannot take the same number.
 */
export async function insertVersion(
  trx: Knex.Transaction,
  v: Pick<VersionRow, 'submission_id' | 'user_id' | 'changes' | 'location'>,
): Promise<void> {
  await trx.raw(
    `INSERT INTO submission_versions (submission_id, number, user_id, changes, location)
     SELECT ?, coalesce(max(number), 0) + 1, ?, ?::jsonb, ?::jsonb
       FROM submission_versions WHERE submission_id = ?`,
    [
      v.submission_id,
      v.user_id,
      JSON.stringify(v.changes),
      v.location ? JSON.stringify(v.location) : null,
      v.submission_id,
    ],
  );
}

/**
 * A page of a submission's edits, newest first, with each author's name from the users
 * projection, and how many there are.
 */
export async function listVersions(
  db: Knex,
  submissionId: number,
  page: number,
  perPage: number,
): Promise<{ rows: VersionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db('submission_versions as v')
      .leftJoin('users as u', 'u.id', 'v.user_id')
      .where('v.submission_id', submissionId)
      .orderBy('v.number', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .select('v.*', 'u.name as user_name') as Promise<VersionRow[]>,
    db('submission_versions').where({ submission_id: submissionId }).count({ n: '*' }).first() as Promise<{
      n: string | number;
    }>,
  ]);
  return { rows, total: Number(count.n) };
}

/** The names of these users in the users projection (ids unknown to the service are left out). */
export async function userNames(
  db: Knex | Knex.Transaction,
  ids: readonly (number | null)[],
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await db('users').whereIn('id', wanted).select('id', 'name')) as Array<{
    id: number;
    name: string | null;
  }>;
  return new Map(rows.filter((r) => r.name !== null).map((r) => [r.id, r.name!]));
}
