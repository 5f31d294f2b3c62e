import type { Request } from 'express';
import { paginated, toJsonSchema, type AnyRouteSpec, pathId } from '@fieldhouse/http';
import { validate } from '@fieldhouse/problem';
import { createSubmission, creationHistory } from '../domain/submission-create.ts';
import { getSubmission, listSubmissions, type ListQuery } from '../domain/submission-read.ts';
import { removeSubmission } from '../domain/submission-delete.ts';
import { changeSubmission } from '../domain/submission-update.ts';
import { listSubmissionVersions } from '../domain/submission-versions.ts';
import type { CollectionContext } from '../domain/context.ts';
import { readMultipart } from './multipart.ts';
import { photoRoutes } from './photo-routes.ts';
import { route } from './declare.ts';
import {
  createSubmissionBody,
  listSubmissionsQuery,
  projectParams,
  submissionBody,
  submissionEnvelope,
  submissionPage,
  submissionParams,
  updateSubmissionBody,
  versionBody,
  versionPage,
} from './submission-schemas.ts';
import { pageQuery } from './common-schemas.ts';
import { syncRoutes } from './sync-routes.ts';

const tags = ['Submissions'];
const projectNotFound = 'Project not found.';

/** The body of a create as JSON or as multipart (a `submission` JSON part plus photo files). */
async function readSubmissionBody(ctx: CollectionContext, req: Request) {
  if (req.is('multipart/form-data')) return readMultipart(req, ctx.photoMaxBytes);
  return { body: req.body as unknown, files: new Map<string, Buffer>() };
}

/**
 * GET /projects/{project_id}/submissions: a page of the project's submissions, newest first,
 * filtered (spec 4.1 "Submissions").
 */
const listSubmissionsRoute = route({
  method: 'get',
  path: '/api/v1/projects/{project_id}/submissions',
  operationId: 'listSubmissions',
  summary: 'Submissions, newest first (collectors see their own)',
  description:
    'Pagination envelope of spec 2.1 (`per_page` 1-100, default 15). Filters: `status`, `date_from`/`date_to` ' +
    '(inclusive UTC days, YYYY-MM-DD), `collector_id`, `search` (words of text and choice values, each a word ' +
    'prefix, all required). Roles with submission.view_all see every submission; collectors only their own.',
  tags,
  params: projectParams,
  notFound: projectNotFound,
  query: listSubmissionsQuery,
  parseQuery: 'by-use-case',
  responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: submissionPage } },
  problems: {
    404: 'Unknown project, or the caller is not a member',
    422: 'Bad page or filter (errors by parameter; `date_to` before `date_from`)',
  },
  handler: async ({ params, readQuery }, ctx, req) => {
    const { rows, total, page, per_page } = await listSubmissions(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      readQuery: () => readQuery() as ListQuery,
    });
    return {
      body: paginated(
        rows.map((s) => submissionBody(s)),
        { page, per_page },
        total,
      ),
    };
  },
});

/** POST /projects/{project_id}/submissions: submit data (spec 2.1 body, JSON or multipart). */
/** The request's `Accept-Language` as a command's `acceptLanguage` (the form's messages' language). */
const acceptLanguage = (req: { headers: Record<string, string | string[] | undefined> }) => {
  const v = req.headers['accept-language'];
  return typeof v === 'string' && v ? { acceptLanguage: v } : {};
};

const createSubmissionRoute = route({
  method: 'post',
  path: '/api/v1/projects/{project_id}/submissions',
  operationId: 'createSubmission',
  summary: 'Submit data (JSON, or multipart: `submission` JSON part + photo files named by field uuid)',
  description:
    'The body of spec 2.1 plus `status` (`draft` or `submitted`, default submitted) and `consent`. Photos come ' +
    'as base64 values, or as multipart files named by their photo field uuid (their entries may omit the value) ' +
    'or by their entry (`{"file": "<part name>"}`, required for photos inside repeat instances). ' +
    'Members whose role may submit, and anyone the project lets in by its `collect_access` (public forms: ' +
    'anonymous callers too). Refusals: unpublished (`project_not_published`), outside the collection window, ' +
    'limit reached (`submission_limit_reached`), second submission (`already_submitted`), missing consent ' +
    '(`consent_required`), draft or foreign version, bad entries: 422; photo too large (`photo_too_large`): 413.',
  tags,
  access: 'optional',
  params: projectParams,
  notFound: projectNotFound,
  requestContent: {
    'application/json': toJsonSchema(createSubmissionBody, {}),
    'multipart/form-data': {
      type: 'object',
      required: ['submission'],
      properties: { submission: { type: 'string', description: 'JSON of the submission body' } },
      additionalProperties: { type: 'string', format: 'binary' },
    },
  },
  responses: { 201: { description: 'Created, with its history', body: submissionEnvelope } },
  problems: {
    400: 'Malformed multipart body, or a `submission` part missing or not JSON (`invalid_json`)',
    403: 'The role may not submit data',
    404: 'Unknown project, or not open to the caller',
    413: 'A photo larger than the limit (`photo_too_large`), or too many parts',
    422: 'Refused by a publication rule (its `code`) or invalid (errors by field)',
  },
  handler: async ({ params }, ctx, req) => {
    const created = await createSubmission(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      // Read after the publication refusals.
      readBody: async () => {
        const { body, files } = await readSubmissionBody(ctx, req);
        return { values: validate(createSubmissionBody, body), photos: files };
      },
      ...acceptLanguage(req),
    });
    return { status: 201, body: { data: submissionBody(created, creationHistory(created)) } };
  },
});

/** GET /projects/{project_id}/submissions/{submission_id}: one submission with its history. */
const getSubmissionRoute = route({
  method: 'get',
  path: '/api/v1/projects/{project_id}/submissions/{submission_id}',
  operationId: 'getSubmission',
  summary: 'Submission with its status history',
  description: 'Visible to roles with submission.view_all and to its own collector.',
  tags,
  params: submissionParams,
  notFound: 'Submission not found.',
  responses: { 200: { description: 'The submission with its `history`', body: submissionEnvelope } },
  problems: { 404: 'Unknown project or submission, or not visible to the caller' },
  handler: async ({ params }, ctx, req) => {
    const { submission, history, names } = await getSubmission(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      submissionId: pathId(params.submission_id, 'submissionId', 'bigint'),
    });
    return { body: { data: submissionBody(submission, history, names) } };
  },
});

/** PUT /projects/{project_id}/submissions/{submission_id}: a status change and/or new data. */
const updateSubmissionRoute = route({
  method: 'put',
  path: '/api/v1/projects/{project_id}/submissions/{submission_id}',
  operationId: 'updateSubmission',
  summary: 'Change status (transition table) and/or data',
  description:
    'A status change along the transition table (docs/collection.md, "Status transitions"): an illegal one is a ' +
    '422 `illegal_transition` naming `current_status` and `requested_status`; one the caller may not make is a ' +
    '403. New data or coordinates from its collector while the submission is a draft, sent back ' +
    '(`requires_correction`), or submitted in a project that allows edits (else 403 `edits_not_allowed`); ' +
    'from owners, admins and managers whatever its status except a draft. An edit of a submission that is not ' +
    'a draft is kept as a version (`GET .../versions`).',
  tags,
  params: submissionParams,
  notFound: 'Submission not found.',
  body: updateSubmissionBody,
  parseBody: 'by-use-case',
  responses: { 200: { description: 'The updated submission with its `history`', body: submissionEnvelope } },
  problems: {
    403: 'Neither the collector nor a reviewer (data), a draft changed by a reviewer, edits not allowed (`edits_not_allowed`), or a transition the caller may not make',
    404: 'Unknown project or submission, or not visible to the caller',
    413: 'A photo larger than the limit (`photo_too_large`)',
    422: 'Illegal transition (`illegal_transition`) or invalid data (errors by field)',
  },
  handler: async ({ params, readBody }, ctx, req) => {
    const { submission, history, names } = await changeSubmission(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      submissionId: pathId(params.submission_id, 'submissionId', 'bigint'),
      // Parsed once the submission is found: an unknown one is a 404 whatever the body.
      readChange: readBody,
      ...acceptLanguage(req),
    });
    return { body: { data: submissionBody(submission, history, names) } };
  },
});

/** DELETE /projects/{project_id}/submissions/{submission_id}: delete it for good (owners, admins, managers). */
const deleteSubmissionRoute = route({
  method: 'delete',
  path: '/api/v1/projects/{project_id}/submissions/{submission_id}',
  operationId: 'deleteSubmission',
  summary: 'Delete a submission for good, with its history and photos (owners, admins, managers)',
  description:
    'Not in the spec: an addition (docs/collection.md, "Deleting a submission"). The project’s counts and quota ' +
    'follow at once; `submission.deleted` webhooks carry the submission as it was. Collectors cannot delete, ' +
    'not even their own submissions.',
  tags,
  params: submissionParams,
  notFound: 'Submission not found.',
  responses: { 204: { description: 'Deleted' } },
  problems: {
    403: 'Visible to the caller, whose role may not delete submissions',
    404: 'Unknown project or submission, or not visible to the caller',
  },
  handler: async ({ params }, ctx, req) => {
    await removeSubmission(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      submissionId: pathId(params.submission_id, 'submissionId', 'bigint'),
    });
    return { status: 204 };
  },
});

/**
 * GET /projects/{project_id}/submissions/{submission_id}/versions: the edits of a submission,
 * newest first (an addition to the spec; docs/collection.md, "Editing a submission and its
 * versions").
 */
const listVersionsRoute = route({
  method: 'get',
  path: '/api/v1/projects/{project_id}/submissions/{submission_id}/versions',
  operationId: 'listSubmissionVersions',
  summary: 'Edits of a submission, newest first: who, when, the answers before → after',
  description:
    'Not in the spec: an addition. Each edit of the data or location of a submission that is not a draft is ' +
    'kept as a version: its `number` (1 for the first edit), `user_id` and `user_name`, `created_at`, the ' +
    'answers that changed (`changes`: `field_uuid`, `type`, `before`, `after`; null is no answer) and the ' +
    'location before and after when it changed. Visible to whoever may see the submission.',
  tags,
  params: submissionParams,
  notFound: 'Submission not found.',
  query: pageQuery,
  parseQuery: 'by-use-case',
  responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: versionPage } },
  problems: {
    404: 'Unknown project or submission, or not visible to the caller',
    422: 'Bad page or per_page',
  },
  handler: async ({ params, readQuery }, ctx, req) => {
    const { rows, total, page, per_page } = await listSubmissionVersions(ctx, {
      actor: req.caller,
      projectId: pathId(params.project_id, 'projectId'),
      submissionId: pathId(params.submission_id, 'submissionId', 'bigint'),
      readPage: readQuery,
    });
    return { body: paginated(rows.map(versionBody), { page, per_page }, total) };
  },
});

/**
 * Submissions, offline sync and photos (spec 2.1, 4.1; rules in docs/collection.md), in
 * matching order.
 */
export const submissionRoutes: AnyRouteSpec<CollectionContext>[] = [
  listSubmissionsRoute,
  createSubmissionRoute,
  getSubmissionRoute,
  updateSubmissionRoute,
  deleteSubmissionRoute,
  listVersionsRoute,
  ...syncRoutes,
  ...photoRoutes,
];
