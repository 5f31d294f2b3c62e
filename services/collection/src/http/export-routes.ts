import { paginated, pageOf, pathId } from '@fieldhouse/http';
import { exportFile, exportHeaders, getExport, listExports, requestExport } from '../domain/exports.ts';
import { envelope, pageQuery } from './common-schemas.ts';
import {
  exportBody,
  exportJobSchema,
  exportParams,
  exportProjectParams,
  exportQueuedSchema,
} from './export-schemas.ts';
import { route } from './declare.ts';
import { downloadHeaders, sendDelivery } from './send-blob.ts';

const tags = ['Exports'];

/** Exports (spec 2.1 "Export request", 4.1; docs/collection.md, "Exports"). */
export const exportRoutes = [
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/submissions/export',
    operationId: 'requestExport',
    summary:
      'Queue an export of the submissions (CSV, xlsx, GeoJSON, or a zip of all data and media), with the list filters',
    description:
      'The job row and its RabbitMQ message (through the outbox) are written in one transaction; the requester gets an e-mail when the file is ready. Roles with submission.view_all (owner, admin, manager, viewer). Photo cells of CSV, xlsx and GeoJSON are absolute URLs of the API (`<PUBLIC_URL>/api/v1/photos/{id}`: whoever follows one signs in and must be allowed to read the submission). `zip` holds the CSV (photo cells: `media/<photo id>.<ext>`) and a `media/` folder with each photo once.',
    tags,
    params: exportProjectParams,
    body: exportBody,
    parseBody: 'by-use-case',
    responses: { 202: { description: 'Queued (spec 2.1 export response)', body: exportQueuedSchema } },
    problems: {
      403: 'Role may not see every submission',
      404: 'Unknown project or not a member',
      422: 'Bad format or filters (errors keyed filters.<name>)',
    },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 202,
      body: {
        status: 'success',
        data: await requestExport(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          request: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/exports',
    operationId: 'listExports',
    summary: 'Exports of a project, newest first',
    description:
      'Pagination envelope of export jobs as `GET /exports/{job_id}` shows them. Owners, admins and managers see every job of the project; viewers only their own.',
    tags,
    params: exportProjectParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(exportJobSchema) } },
    problems: {
      403: 'Role may not see every submission',
      404: 'Unknown project or not a member',
      422: 'Bad page or per_page',
    },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listExports(ctx, req.caller, {
        projectId: pathId(params.project_id, 'projectId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/exports/{job_id}',
    operationId: 'getExport',
    summary: 'Status of an export: requester and workspace owners, admins, managers',
    description: 'Status, rows written, progress (0 to 1), error, expiry and download URL.',
    tags,
    params: exportParams,
    responses: { 200: { description: 'The export job', body: envelope(exportJobSchema) } },
    problems: { 404: 'Unknown or not visible' },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getExport(ctx, req.caller, params.job_id) },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/exports/{job_id}/download',
    operationId: 'downloadExport',
    summary: 'The export file (attachment)',
    description:
      'CSV, xlsx, GeoJSON or zip as requested, streamed with its Content-Length, named `<project name slug>-<UTC day requested>.<ext>` (e.g. `water-points-2026-11-28.csv`).',
    tags,
    params: exportParams,
    responses: {
      200: {
        description: 'The file',
        headers: {
          'Content-Disposition': {
            description:
              'RFC 6266: `attachment; filename="<slug>-<YYYY-MM-DD>.<ext>"`, plus `filename*=UTF-8\'\'<percent-encoded name>` when the project name is not plain ASCII (the `filename` is then its ASCII form)',
          },
        },
        content: {
          'text/csv': { type: 'string' },
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            type: 'string',
            format: 'binary',
          },
          'application/geo+json': { type: 'object' },
          'application/zip': { type: 'string', format: 'binary' },
        },
      },
      302: {
        description:
          'With object storage (`BLOB_STORE=s3`): a presigned URL of the file, valid `S3_PRESIGN_SECONDS` ' +
          '(300 s), answering with the same headers',
        headers: {
          Location: { description: 'The presigned URL', schema: { type: 'string' } },
          'Cache-Control': { description: '`no-store`' },
        },
      },
    },
    problems: {
      404: 'Unknown or not visible',
      409: 'Not completed (export_not_ready)',
      410: 'File expired and deleted (export_expired)',
    },
    handler: async ({ params }, ctx, req, res) => {
      const file = await exportFile(ctx, req.caller, params.job_id);
      await sendDelivery(res, file, downloadHeaders(exportHeaders(file.contentType, file.filename)));
    },
  }),
];
