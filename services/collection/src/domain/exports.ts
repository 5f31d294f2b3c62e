import { randomUUID } from 'node:crypto';
import { ProblemError } from '@fieldhouse/problem';
import {
  EXPORT_FORMATS,
  exportJson,
  findExport,
  insertExport,
  listExports as selectExports,
  type ExportFormat,
  type ExportJobRow,
} from '../data/exports.ts';
import { findProject } from '../data/projects.ts';
import { roleIn } from '../data/workspaces.ts';
import { attachmentDisposition, exportFileName, FORMAT_FILES } from './export-names.ts';
import { projectFor, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import type { BodyReader, PageRequest } from '@fieldhouse/http';
import type { ExportOptions } from './export-columns.ts';
import { parseListFilters } from './list-filters.ts';
import { problems } from './problems.ts';
import { can, type Role } from './roles.ts';
import { deliveryOf, type BlobDelivery } from './blob-delivery.ts';
import { changes } from './changes.ts';

/** Routing key of an export job on the collection exchange: `{export_id}` (the export worker takes it). */
export const EXPORT_REQUESTED = 'export.requested';

/** Formats an export may have (docs/collection.md, "Exports"). */
export { EXPORT_FORMATS };

/** A UUID a PostgreSQL `uuid` column accepts (any other job id finds nothing). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  caller: Actor,
  command: RequestExportCommand,
): Promise<{ job_id: string; message: string }> {
  const userId = userIdOf(caller);
  const { project } = await projectFor(ctx, caller, command.projectId, 'submission.view_all');
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
 * Whether `role` (the caller's role in the job's workspace **now**, undefined when not a member)
 * may see and download the job (docs/collection.md, "Exports"): owners, admins and managers
 * every job (`export.view_all`); its requester while their role may still read every
 * submission of the project (`submission.view_all`, what requesting it needed). So a member
 * removed from the workspace, or moved to a role that reads only their own submissions, loses
 * the export at once, not when it expires (issue 31).
 */
const mayReadExport = (job: Pick<ExportJobRow, 'requested_by'>, userId: number, role: Role | undefined) =>
  !!role &&
  (can(role, 'export.view_all') || (job.requested_by === userId && can(role, 'submission.view_all')));

/**
 * The job when {@link mayReadExport} lets the caller see it, checked on every call (the status
 * and every download: a link handed out earlier carries no access of its own).
 * @throws ProblemError 404 `Export not found.` otherwise (unknown and forbidden look the same,
 *   as for a project of a workspace the caller is not a member of), 401 anonymous.
 */
async function visibleExport(ctx: CollectionContext, caller: Actor, jobId: string): Promise<ExportJobRow> {
  const userId = userIdOf(caller);
  const job = UUID.test(jobId) ? await findExport(ctx.db, jobId) : undefined;
  if (!job) throw problems.notFound({ resource: 'export' });
  const role = await roleIn(ctx.db, job.workspace_id, userId);
  if (!mayReadExport(job, userId, role)) throw problems.notFound({ resource: 'export' });
  return job;
}

/**
 * A page of a project's exports, newest first (roles with submission.view_all: owner, admin,
 * manager, viewer): owners, admins and managers see every job (`export.view_all`), a viewer only
 * their own, as `GET /exports/{id}` would show them.
 * @throws 404 (not a member or unknown project), 403 (role), 401 anonymous.
 */
export async function listExports(
  ctx: CollectionContext,
  caller: Actor,
  command: { projectId: number; page: BodyReader<PageRequest> },
): Promise<{ items: ExportView[]; total: number }> {
  const userId = userIdOf(caller);
  const { project, role } = await projectFor(ctx, caller, command.projectId, 'submission.view_all');
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
 * @throws 404 unless visible to the caller now ({@link visibleExport}), 401 anonymous.
 */
export async function getExport(ctx: CollectionContext, caller: Actor, jobId: string): Promise<ExportView> {
  return exportJson(await visibleExport(ctx, caller, jobId));
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
 * (domain/export-names.ts), for a caller who may read it at the time of this call
 * ({@link visibleExport}: the requester's membership and role are checked again on every
 * download, not only when the export was requested). With object storage the answer is a
 * presigned URL made after that check, valid `S3_PRESIGN_SECONDS`.
 * @throws 404 unless visible, 409 `export_not_ready` before completion, 410 `export_expired`
 * once its file was deleted or expired.
 */
export async function exportFile(ctx: CollectionContext, caller: Actor, jobId: string): Promise<ExportFile> {
  const job = await visibleExport(ctx, caller, jobId);
  const view = exportJson(job);
  if (job.status !== 'completed') throw problems.exportNotReady({ status: job.status });
  const file = FORMAT_FILES[job.format];
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
