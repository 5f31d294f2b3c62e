import { randomUUID } from 'node:crypto';
import { ProblemError } from '@fieldhouse/problem';
import {
  EXPORT_FORMATS,
  exportJson,
  insertExport,
  listExports as selectExports,
  type ExportFormat,
} from '../data/exports.ts';
import { findProject } from '../data/projects.ts';
import { attachmentDisposition, exportFileName, FORMAT_FILES } from './export-names.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import type { BodyReader, PageRequest } from '@fieldhouse/http';
import type { ExportOptions } from './export-columns.ts';
import { parseListFilters } from './list-filters.ts';
import { problems } from './problems.ts';
import { can } from './roles.ts';
import { deliveryOf, type BlobDelivery } from './blob-delivery.ts';
import { changes } from './changes.ts';

/** Routing key of an export job on the collection exchange: `{export_id}` (the export worker takes it). */
export const EXPORT_REQUESTED = 'export.requested';

/** Formats an export may have (docs/collection.md, "Exports"). */
export { EXPORT_FORMATS };

/** An export job as the API shows it (status, progress from 0 to 1, expiry, download URL). */
export type ExportView = ReturnType<typeof exportJson>;

/** Spec 2.1 "Export request": the format, the list filters and the file options. */
export interface ExportInput {
  format: ExportFormat;
  /** The list filters of `GET /projects/{id}/submissions` (checked here). */
  filters: unknown;
  options: Partial<ExportOptions>;
}

/** Export a project's submissions. */
export interface RequestExportCommand {
  projectId: number;
  request: BodyReader<ExportInput>;
}

/** The list filters, their errors named by their place in the body (`filters.<name>`). */
function exportFilters(raw: unknown) {
  try {
    return parseListFilters(raw, { convert: false });
  } catch (err) {
    if (err instanceof ProblemError && err.errors)
      throw problems.validationFailed({
        errors: Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [`filters.${k}`, v])),
      });
    throw err;
  }
}

/**
 * Queues an export of a project's submissions (roles with submission.view_all: owner, admin,
 * manager, viewer). The job row and its RabbitMQ message (through the outbox) are written in
 * one transaction, so a job is never queued without its message nor the reverse.
 * @returns the job id and a message telling where to follow it.
 * @throws 422 on bad filters (errors keyed `filters.<name>`); 404, 403 access; 401 anonymous.
 */
export async function requestExport(
  ctx: CollectionContext,
  actor: Actor,
  command: RequestExportCommand,
): Promise<{ job_id: string; message: string }> {
  const userId = userIdOf(actor);
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'submission.view_all',
    projectId: command.projectId,
  });
  const input = command.request();
  const filters = exportFilters(input.filters);
  const jobId = randomUUID();
  await ctx.inTransaction(async (trx, outbox) => {
    await insertExport(trx, {
      id: jobId,
      project_id: project.id,
      workspace_id: project.workspace_id,
      requested_by: userId,
      format: input.format,
      filters,
      options: input.options,
    });
    await changes.append(outbox, 'export.requested', { export_id: jobId });
  });
  return {
    job_id: jobId,
    message: `Export queued. Follow it at /api/v1/exports/${jobId}; you will get an e-mail when it is ready.`,
  };
}

/**
 * A page of a project's exports, newest first (roles with submission.view_all: owner, admin,
 * manager, viewer): owners, admins and managers see every job (`export.view_all`), a viewer only
 * their own, as `GET /exports/{id}` would show them.
 * @throws 404 (not a member or unknown project), 403 (role), 401 anonymous.
 */
export async function listExports(
  ctx: CollectionContext,
  actor: Actor,
  command: { projectId: number; page: BodyReader<PageRequest> },
): Promise<{ items: ExportView[]; total: number }> {
  const userId = userIdOf(actor);
  const { project, role } = await requireAccess(ctx, {
    actor,
    permission: 'submission.view_all',
    projectId: command.projectId,
  });
  const { page, per_page } = command.page();
  const { rows, total } = await selectExports(
    ctx.db,
    project.id,
    can(role, 'export.view_all') ? undefined : userId,
    page,
    per_page,
  );
  return { items: rows.map((r) => exportJson(r)), total };
}

/**
 * An export job's state.
 * @throws 404 unless visible to the actor now (`export.read` of {@link requireAccess}), 401 anonymous.
 */
export async function getExport(ctx: CollectionContext, actor: Actor, jobId: string): Promise<ExportView> {
  return exportJson((await requireAccess(ctx, { actor, permission: 'export.read', exportId: jobId })).job);
}

/** A finished export's file: its bytes, size, content type and attachment name. */
export type ExportFile = BlobDelivery & { contentType: string; filename: string };

/**
 * The headers an export file is answered with (by the service, or by the object storage it
 * redirects to): an attachment named `filename` after RFC 6266 (`filename*` in UTF-8 when the
 * name is not plain ASCII, domain/export-names.ts).
 */
export const exportHeaders = (contentType: string, filename: string) => ({
  contentType,
  contentDisposition: attachmentDisposition(filename),
  cacheControl: 'private, no-store',
});

/**
 * The file of a completed export, named `<project name slug>-<UTC day requested>.<ext>`
 * (domain/export-names.ts; a CSV export of a form with repeats is a `.zip` of its tables), for a actor who may read it at the time of this call
 * (`export.read` of {@link requireAccess}: the requester's membership and role are checked again on every
 * download, not only when the export was requested). With object storage the answer is a
 * presigned URL made after that check, valid `S3_PRESIGN_SECONDS`.
 * @throws 404 unless visible, 409 `export_not_ready` before completion, 410 `export_expired`
 * once its file was deleted or expired.
 */
export async function exportFile(ctx: CollectionContext, actor: Actor, jobId: string): Promise<ExportFile> {
  const { job } = await requireAccess(ctx, { actor, permission: 'export.read', exportId: jobId });
  const view = exportJson(job);
  if (job.status !== 'completed') throw problems.exportNotReady({ status: job.status });
  // The CSV of a form with repeats is a zip of one CSV per table (its key ends in .zip).
  const file = FORMAT_FILES[job.blob_key?.endsWith('.zip') ? 'zip' : job.format];
  const filename = exportFileName(
    (await findProject(ctx.db, job.project_id))?.name,
    job.created_at,
    file.ext,
  );
  const delivery =
    view.download_url && job.blob_key
      ? await deliveryOf(ctx.blobs, job.blob_key, exportHeaders(file.contentType, filename))
      : undefined;
  if (!delivery) throw problems.exportExpired();
  return { ...delivery, contentType: file.contentType, filename };
}
