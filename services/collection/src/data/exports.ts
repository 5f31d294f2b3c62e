import type { Knex } from 'knex';
import type { ExportOptions } from '../domain/export-columns.ts';
import type { ListFilters } from './submission-list.ts';

/** Formats an export may have (docs/collection.md, "Exports"). */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'geojson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

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
  heartbeat_at: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  file_deleted_at: Date | null;
}

export const findExport = (db: Knex | Knex.Transaction, id: string): Promise<ExportJobRow | undefined> =>
  db('exports').where({ id }).first();

/**
 * Takes a job for this worker: a `queued` one, or a `running` one whose heartbeat is older
 * than `staleMs` (its worker died). Resolves with the job, or undefined when it is finished
 * or another live worker holds it.
 */
export async function claimExport(db: Knex, id: string, staleMs: number): Promise<ExportJobRow | undefined> {
  const rows = (await db('exports')
    .where({ id })
    .andWhere((q) =>
      q
        .where('status', 'queued')
        .orWhere((r) =>
          r
            .where('status', 'running')
            .where('heartbeat_at', '<', db.raw(`now() - make_interval(secs => ?)`, [staleMs / 1000])),
        ),
    )
    .update({
      status: 'running',
      heartbeat_at: db.fn.now(),
      started_at: db.fn.now(),
      attempts: db.raw('attempts + 1'),
      rows_written: 0,
      error: null,
    })
    .returning('*')) as ExportJobRow[];
  return rows[0];
}

/** Progress of a running job; also its heartbeat. */
export const heartbeatExport = (db: Knex, id: string, rowsWritten: number) =>
  db('exports')
    .where({ id, status: 'running' })
    .update({ rows_written: rowsWritten, heartbeat_at: db.fn.now() });

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
