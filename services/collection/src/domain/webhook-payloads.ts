import { SUBMISSION_COLUMNS } from '../data/submissions.ts';
import type { JsonSchema } from '@fieldhouse/http';
import type { WebhookKindDoc } from '@fieldhouse/webhooks';
import { EXPORT_FORMATS } from './exports.ts';
import { FIELD_TYPES } from './fields.ts';
import { STATUSES } from './transitions.ts';
import type { WORKSPACE_WEBHOOK_KINDS } from './webhooks.ts';

/**
 * The `data` of each kind of area A as JSON Schema (docs/webhooks.md, "Area A"), for the
 * service's AsyncAPI document. The shapes are those the triggers of migration 012-webhooks
 * build (`webhook_submission`, `webhook_submission_links`, the trigger functions): every key is
 * always present, null where its column is nullable; only `links.download` comes and goes.
 */

const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const id: JsonSchema = { type: 'integer' };
const coordinate = (what: string): JsonSchema => ({ type: ['number', 'null'], description: what });
const status: JsonSchema = { type: 'string', enum: [...STATUSES] };
const workspaceId: JsonSchema = { ...id, description: 'The workspace of the subscription.' };

/** The stored answers: one entry per answered field (a photo's value is `{photo_id, content_type, size, url}`). */
const entries: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['field_uuid', 'type'],
    properties: {
      field_uuid: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: [...FIELD_TYPES] },
      value: { description: "The answer, in the field type's shape." },
    },
  },
};

const coordinates = {
  latitude: coordinate('Degrees (WGS 84); null without a location.'),
  longitude: coordinate('Degrees (WGS 84); null without a location.'),
  altitude: coordinate('Metres; null if not given.'),
  precision: coordinate('Metres; null if not given.'),
};

/** `webhook_submission`: a submission row. */
const submission: JsonSchema = {
  type: 'object',
  // Every column of a submission row (SUBMISSION_COLUMNS), as the trigger's webhook_submission builds it.
  required: [...SUBMISSION_COLUMNS],
  properties: {
    id,
    project_id: id,
    form_version_id: id,
    collector_id: { type: ['integer', 'null'], description: 'null: an anonymous public submission.' },
    status,
    ...coordinates,
    data: entries,
    consent: { type: ['boolean', 'null'], description: 'The consent given; null if not asked.' },
    created_at: time,
    updated_at: time,
    submitted_at: nullableTime,
  },
};

/** `webhook_submission_links`. */
const submissionLinks: JsonSchema = {
  type: 'object',
  required: ['submission', 'project'],
  properties: {
    submission: {
      type: 'string',
      description: '`/api/v1/projects/{project_id}/submissions/{submission_id}`',
    },
    project: { type: 'string', description: '`/api/v1/projects/{project_id}`' },
  },
};

/** The `export` of `export.completed` and `export.failed`, its `status` the kind's. */
const exportJob = (outcome: 'completed' | 'failed'): JsonSchema => ({
  type: 'object',
  required: [
    'id',
    'project_id',
    'format',
    'filters',
    'status',
    'rows',
    'error',
    'requested_by',
    'created_at',
    'finished_at',
    'expires_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    project_id: id,
    format: { type: 'string', enum: [...EXPORT_FORMATS] },
    filters: { type: 'object', description: 'The list filters of the request, as given.' },
    status: { type: 'string', const: outcome },
    rows: { type: 'integer', minimum: 0, description: 'Rows written.' },
    error: { type: ['string', 'null'], description: 'Why it failed; null when it did not.' },
    requested_by: { ...id, description: 'The user who asked for it.' },
    created_at: time,
    finished_at: nullableTime,
    expires_at: { ...nullableTime, description: 'When the file is deleted.' },
  },
});

const exportLinks = (download: boolean): JsonSchema => ({
  type: 'object',
  required: download ? ['export', 'download'] : ['export'],
  properties: {
    export: { type: 'string', description: '`/api/v1/exports/{job_id}`' },
    ...(download ? { download: { type: 'string', description: '`/api/v1/exports/{job_id}/download`' } } : {}),
  },
});

const exportData = (outcome: 'completed' | 'failed'): JsonSchema => ({
  type: 'object',
  required: ['workspace_id', 'export', 'links'],
  properties: {
    workspace_id: workspaceId,
    export: exportJob(outcome),
    links: exportLinks(outcome === 'completed'),
  },
});

/** Every kind of {@link WORKSPACE_WEBHOOK_KINDS}, documented (the type makes a missing kind a compile error). */
export const WORKSPACE_WEBHOOK_PAYLOADS: Record<
  (typeof WORKSPACE_WEBHOOK_KINDS)[number],
  Omit<WebhookKindDoc, 'kind'>
> = {
  'submission.created': {
    summary: 'A submission was stored.',
    description: 'Sent when a submission is stored, whichever path: the API, a web form, an offline sync.',
    data: {
      type: 'object',
      required: ['workspace_id', 'submission', 'links'],
      properties: { workspace_id: workspaceId, submission, links: submissionLinks },
    },
  },
  'submission.updated': {
    summary: 'The data or location of a submission changed.',
    description:
      'Sent when the answers or the location of a submission change (a status change alone is ' +
      '`submission.reviewed`); `previous` holds what they were.',
    data: {
      type: 'object',
      required: ['workspace_id', 'submission', 'previous', 'links'],
      properties: {
        workspace_id: workspaceId,
        submission: { ...submission, description: 'The submission as changed.' },
        previous: {
          type: 'object',
          description: 'The answers and location before the change.',
          required: ['data', 'latitude', 'longitude', 'altitude', 'precision'],
          properties: { data: entries, ...coordinates },
        },
        links: submissionLinks,
      },
    },
  },
  'submission.reviewed': {
    summary: 'The status of a submission changed.',
    description: 'Sent when the review status of a submission changes (not when it is created).',
    data: {
      type: 'object',
      required: [
        'workspace_id',
        'submission_id',
        'project_id',
        'from',
        'to',
        'comment',
        'reviewer',
        'reviewed_at',
        'links',
      ],
      properties: {
        workspace_id: workspaceId,
        submission_id: id,
        project_id: id,
        from: status,
        to: status,
        comment: { type: ['string', 'null'], description: 'The comment of the change, if any.' },
        reviewer: {
          type: ['object', 'null'],
          description: 'Who changed it; null when no user is recorded.',
          required: ['id', 'name'],
          properties: {
            id,
            name: {
              type: ['string', 'null'],
              description: 'null when the user is not known to the service yet.',
            },
          },
        },
        reviewed_at: time,
        links: submissionLinks,
      },
    },
  },
  'submission.deleted': {
    summary: 'A submission was deleted.',
    description:
      'Sent when a submission is deleted on its own; deleting its project or its workspace sends ' +
      'nothing for the submissions that go with it.',
    data: {
      type: 'object',
      required: ['workspace_id', 'submission', 'deleted_at', 'links'],
      properties: {
        workspace_id: workspaceId,
        submission: { ...submission, description: 'The submission as it was.' },
        deleted_at: time,
        links: {
          type: 'object',
          required: ['project'],
          properties: { project: { type: 'string', description: '`/api/v1/projects/{project_id}`' } },
        },
      },
    },
  },
  'export.completed': {
    summary: 'An export finished: its file can be downloaded.',
    description: 'Sent when an export job completes; `links.download` is its file until `expires_at`.',
    data: exportData('completed'),
  },
  'export.failed': {
    summary: 'An export failed.',
    description: 'Sent when an export job fails for good; `export.error` says why.',
    data: exportData('failed'),
  },
};
