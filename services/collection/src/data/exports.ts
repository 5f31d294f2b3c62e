import type { Knex } from 'knex';
import type { ExportOptions } from '../domain/types.ts';
import type { ListFilters } from './submission-list.ts';

/** Formats an export may have (docs/collection.md, "Exports"). */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'geojson', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A row of `exports` (libs/db parses bigint counts to numbers). */
export interface ExportJobRow {
  id: string;
  project_id: number;
  workspace_id: number;
  requested_by: number;
  format: ExportFormat;
  filters: ListFilters;
  /** Options as requested (missing ones take their defaults). */
  options: Partial<ExportOptions>;
  status: ExportStatus;
  rows_written: number;
  total_rows: number | null;
  attempts: number;
  error: string | null;
  blob_key: string | null;
  /** Until when the worker running it holds it (renewed while it runs); null unless running. */
  lease_until: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  file_deleted_at: Date | null;
}

/** Inserts a queued export job (filters and options as JSON), in the caller's transaction. */
export async function insertExport(
  trx: Knex | Knex.Transaction,
  job: Pick<
    ExportJobRow,
    'id' | 'project_id' | 'workspace_id' | 'requested_by' | 'format' | 'filters' | 'options'
  >,
): Promise<void> {
  await trx('exports').insert({
    ...job,
    filters: JSON.stringify(job.filters),
    options: JSON.stringify(job.options),
    status: 'queued',
  });
}

export const findExport = (db: Knex | Knex.Transaction, id: string): Promise<ExportJobRow | undefined> =>
  db('exports').where({ id }).first();

/** `lease_until` has passed (or was never set): whoever held the job stopped renewing it. */
const LEASE_LAPSED = `coalesce(lease_until, '-infinity') < now()`;
const leaseLapsed = (db: Knex | Knex.Transaction) => db.raw(LEASE_LAPSED);

/** A job nobody works on: `queued`, or `running` under a lapsed lease. */
const abandoned = (db: Knex | Knex.Transaction) => (q: Knex.QueryBuilder) =>
  q.where('status', 'queued').orWhere((r) => r.where('status', 'running').andWhere(leaseLapsed(db)));

/** What {@link claimExport} found. */
export type ExportClaim =
  /** Taken: `running` under this worker's lease, `attempts` counted. */
  | { kind: 'claimed'; job: ExportJobRow }
  /** Nobody works on it, but it had `maxAttempts` already: the caller ends it as failed. */
  | { kind: 'exhausted'; job: ExportJobRow }
  /** Another worker's lease is still running; it lapses in `leaseLeftMs` unless renewed. */
  | { kind: 'held'; leaseLeftMs: number }
  /** `completed` or `failed` already. */
  | { kind: 'finished'; job: ExportJobRow }
  | { kind: 'missing' };

/**
 * Takes a job for this worker (docs/reliability.md, "Exports"): a `queued` one, or a `running`
 * one whose lease has lapsed (its worker died), provided it has had fewer than `maxAttempts`
 * claims. The claim sets `lease_until = now() + leaseMs` (the database's clock, as every lease
 * comparison) and counts an attempt. Otherwise says why not.
 */
export async function claimExport(
  db: Knex,
  id: string,
  { leaseMs, maxAttempts }: { leaseMs: number; maxAttempts: number },
): Promise<ExportClaim> {
  const rows = (await db('exports')
    .where({ id })
    .andWhere(abandoned(db))
    .andWhere('attempts', '<', maxAttempts)
    .update({
      status: 'running',
      lease_until: db.raw(`now() + make_interval(secs => ?)`, [leaseMs / 1000]),
      started_at: db.fn.now(),
      attempts: db.raw('attempts + 1'),
      rows_written: 0,
      error: null,
    })
    .returning('*')) as ExportJobRow[];
  if (rows[0]) return { kind: 'claimed', job: rows[0] };
  const row = (await db('exports')
    .where({ id })
    .first(
      '*',
      db.raw(`${LEASE_LAPSED} AS lapsed`),
      db.raw(`greatest(0, extract(epoch from lease_until - now()) * 1000)::float8 AS lease_left_ms`),
    )) as (ExportJobRow & { lapsed: boolean; lease_left_ms: number | null }) | undefined;
  if (!row) return { kind: 'missing' };
  if (row.status === 'completed' || row.status === 'failed') return { kind: 'finished', job: row };
  if ((row.status === 'queued' || row.lapsed) && row.attempts >= maxAttempts)
    return { kind: 'exhausted', job: row };
  // Running under a live lease, or changed hands between the two statements: look again later.
  return { kind: 'held', leaseLeftMs: row.lapsed ? 0 : (row.lease_left_ms ?? 0) };
}

/**
 * Renews the lease of the job this worker holds (claim number `attempts`) and records its
 * progress. Resolves with false when the job is no longer this worker's (its lease lapsed and
 * another worker took it, or it was ended): the caller stops writing.
 */
export async function renewExportLease(
  db: Knex,
  job: { id: string; attempts: number },
  rowsWritten: number,
  leaseMs: number,
): Promise<boolean> {
  const n = await db('exports')
    .where({ id: job.id, status: 'running', attempts: job.attempts })
    .update({
      rows_written: rowsWritten,
      lease_until: db.raw(`now() + make_interval(secs => ?)`, [leaseMs / 1000]),
    });
  return n === 1;
}

/**
 * Ends a job nobody works on (`queued`, or `running` under a lapsed lease) as `failed` with
 * `reason`, in `trx`. Resolves with the job when it did (the caller tells the requester),
 * undefined when the job is finished, missing, or held by a live worker (which ends it itself).
 */
export async function failAbandonedExport(
  trx: Knex.Transaction,
  id: string,
  reason: string,
): Promise<ExportJobRow | undefined> {
  const rows = (await trx('exports')
    .where({ id })
    .andWhere(abandoned(trx))
    .update({ status: 'failed', error: reason.slice(0, 1000), finished_at: trx.fn.now(), lease_until: null })
    .returning('*')) as ExportJobRow[];
  return rows[0];
}

/**
 * Ends this attempt of a job as `completed` with its file (`blob_key`), row count and expiry
 * (`ttlHours` from now), unless another worker took the job over (its claim number moved on).
 * @returns whether this attempt still owned the job.
 */
export async function completeExportAttempt(
  trx: Knex.Transaction,
  job: Pick<ExportJobRow, 'id' | 'attempts'>,
  done: { rows: number; key: string; ttlHours: number },
): Promise<boolean> {
  const n = await trx('exports')
    .where({ id: job.id, status: 'running', attempts: job.attempts })
    .update({
      status: 'completed',
      rows_written: done.rows,
      total_rows: done.rows,
      blob_key: done.key,
      error: null,
      lease_until: null,
      finished_at: trx.fn.now(),
      expires_at: trx.raw(`now() + make_interval(hours => ?)`, [done.ttlHours]),
    });
  return n === 1;
}

/**
 * Ends this failed attempt of a job: `failed` with `reason` on the last one, else back to
 * `queued` (the consumer retries), unless another worker took the job over.
 * @returns whether this attempt still owned the job.
 */
export async function endFailedExportAttempt(
  trx: Knex.Transaction,
  job: Pick<ExportJobRow, 'id' | 'attempts'>,
  failure: { reason: string; last: boolean },
): Promise<boolean> {
  const error = failure.reason.slice(0, 1000);
  const n = await trx('exports')
    .where({ id: job.id, status: 'running', attempts: job.attempts })
    .update(
      failure.last
        ? { status: 'failed', error, finished_at: trx.fn.now(), lease_until: null }
        : { status: 'queued', error, lease_until: null },
    );
  return n === 1;
}

/**
 * Puts the `running` jobs whose lease lapsed back to `queued` (rows locked, those another
 * transaction holds skipped). @returns their ids.
 */
export async function requeueStaleExports(trx: Knex.Transaction): Promise<string[]> {
  const stale = (await trx('exports')
    .where('status', 'running')
    .where('lease_until', '<', trx.fn.now())
    .forUpdate()
    .skipLocked()
    .select('id')) as Array<{ id: string }>;
  for (const s of stale)
    await trx('exports').where({ id: s.id }).update({
      status: 'queued',
      lease_until: null,
      error: 'the worker stopped responding; the job was restarted',
    });
  return stale.map((s) => s.id);
}

/**
 * A page of a project's export jobs, newest first; with `requestedBy`, only that user's.
 * Resolves with the rows of the page and the number of jobs in all.
 */
export async function listExports(
  db: Knex,
  projectId: number,
  requestedBy: number | undefined,
  page: number,
  perPage: number,
): Promise<{ rows: ExportJobRow[]; total: number }> {
  const scope = (q: Knex.QueryBuilder) => {
    q.where({ project_id: projectId });
    if (requestedBy !== undefined) q.andWhere({ requested_by: requestedBy });
    return q;
  };
  const [{ n }] = (await scope(db('exports').count({ n: '*' }))) as [{ n: string }];
  const rows = (await scope(db('exports').select('*'))
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage)) as ExportJobRow[];
  return { rows, total: Number(n) };
}

/** API shape of an export job (`GET /exports/{id}`). */
export function exportJson(j: ExportJobRow, now = new Date()) {
  const rows = j.rows_written;
  const total = j.total_rows;
  const available = j.status === 'completed' && !j.file_deleted_at && (!j.expires_at || j.expires_at > now);
  return {
    id: j.id,
    project_id: j.project_id,
    format: j.format,
    filters: j.filters,
    options: j.options,
    status: j.status,
    rows_written: rows,
    total_rows: total,
    progress: j.status === 'completed' ? 1 : total ? Math.min(1, rows / total) : total === 0 ? 1 : 0,
    error: j.error,
    requested_by: j.requested_by,
    created_at: j.created_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    expires_at: j.expires_at,
    expired: j.status === 'completed' && !available,
    download_url: available ? `/api/v1/exports/${j.id}/download` : null,
  };
}
