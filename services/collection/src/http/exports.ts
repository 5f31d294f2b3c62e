import { idParam, isUuid } from '@fieldhouse/http';
import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import Joi from 'joi';
import { notFound, ProblemError, validate } from '@fieldhouse/problem';
import {
  exportJson,
  EXPORT_FORMATS,
  findExport,
  type ExportFormat,
  type ExportJobRow,
} from '../data/exports.ts';
import { roleIn } from '../data/workspaces.ts';
import { can } from '../domain/roles.ts';
import { EXPORT_HEADERS, type ExportOptions } from '../domain/export-columns.ts';
import { FORMAT_FILES } from '../workers/export-file.ts';
import { queueExport } from '../workers/exports.ts';
import { projectFor, userIdOf } from './access.ts';
import type { CollectionContext } from './context.ts';
import { sendBlob } from './send-blob.ts';
import { parseListFilters } from './list-filters.ts';

/** Body of `POST /projects/{id}/submissions/export` (spec 2.1 "Export request"). */
const exportSchema = Joi.object({
  format: Joi.string()
    .valid(...EXPORT_FORMATS)
    .required(),
  filters: Joi.object().unknown(true).default({}),
  options: Joi.object({
    header: Joi.string().valid(...EXPORT_HEADERS),
    choice_columns: Joi.boolean(),
    formula_escaping: Joi.boolean(),
  }).default({}),
});

/**
 * The job when the caller is its requester or an owner, admin or manager of its workspace.
 * @throws ProblemError 404 otherwise (unknown and forbidden look the same), 401 anonymous.
 */
async function visibleExport(ctx: CollectionContext, req: Request): Promise<ExportJobRow> {
  const userId = userIdOf(req);
  const id = req.params.jobId;
  const job = isUuid(id) ? await findExport(ctx.db, id) : undefined;
  if (!job) throw notFound('Export not found.');
  if (job.requested_by === userId) return job;
  const role = await roleIn(ctx.db, job.workspace_id, userId);
  if (!role || !can(role, 'export.view_all')) throw notFound('Export not found.');
  return job;
}

/** Exports (spec 2.1, 4.1; docs/collection.md, "Exports"). */
export function exportRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /**
   * POST /projects/{id}/submissions/export `{format: "csv" | "xlsx" | "geojson", filters: {status?,
   * date_from?, date_to?, collector_id?, search?}, options?: {header?: "names" | "labels",
   * choice_columns?: boolean, formula_escaping?: boolean}}` → 202 `{status: "success", data: {job_id, message}}`.
   * The job row and its RabbitMQ message (through the outbox) are written in one transaction.
   * Roles with submission.view_all (owner, admin, manager, viewer); others 403/404. Bad format
   * or filters 422.
   */
  r.post('/api/v1/projects/:projectId/submissions/export', async (req, res) => {
    const userId = userIdOf(req);
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'submission.view_all');
    const body = validate(exportSchema, req.body, { convert: false }) as {
      format: ExportFormat;
      filters: unknown;
      options: Partial<ExportOptions>;
    };
    let filters;
    try {
      filters = parseListFilters(body.filters, { convert: false });
    } catch (err) {
      // Name the filters by their place in the body.
      if (err instanceof ProblemError && err.errors)
        throw new ProblemError(422, err.message, {
          code: 'validation_failed',
          errors: Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [`filters.${k}`, v])),
        });
      throw err;
    }
    const jobId = randomUUID();
    await ctx.db.transaction(async (trx) => {
      await trx('exports').insert({
        id: jobId,
        project_id: project.id,
        workspace_id: project.workspace_id,
        requested_by: userId,
        format: body.format,
        filters: JSON.stringify(filters),
        options: JSON.stringify(body.options),
        status: 'queued',
      });
      await queueExport(trx, jobId);
    });
    ctx.outboxWritten();
    res.status(202).json({
      status: 'success',
      data: {
        job_id: jobId,
        message: `Export queued. Follow it at /api/v1/exports/${jobId}; you will get an e-mail when it is ready.`,
      },
    });
  });

  /** GET /exports/{job_id}: status, rows written, progress (0 to 1), error, expiry; 404 unless visible. */
  r.get('/api/v1/exports/:jobId', async (req, res) => {
    res.json({ data: exportJson(await visibleExport(ctx, req)) });
  });

  /**
   * GET /exports/{job_id}/download: the file (text/csv, attachment). 404 unless visible; 409
   * `export_not_ready` before completion; 410 `export_expired` once its file was deleted or expired.
   */
  r.get('/api/v1/exports/:jobId/download', async (req, res) => {
    const job = await visibleExport(ctx, req);
    const view = exportJson(job);
    if (job.status !== 'completed')
      throw new ProblemError(409, `This export is ${job.status}; it has no file to download.`, {
        code: 'export_not_ready',
      });
    const blob = view.download_url && job.blob_key ? await ctx.blobs.getStream(job.blob_key) : undefined;
    if (!blob)
      throw new ProblemError(410, 'This export has expired; request a new one.', { code: 'export_expired' });
    const file = FORMAT_FILES[job.format];
    await sendBlob(res, blob, {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="export-${job.project_id}-${job.id}.${file.ext}"`,
    });
  });

  return r;
}
