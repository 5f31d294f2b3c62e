import type { EmailRequested } from '@fieldhouse/contracts';
import { defineChanges, message, t, webhook } from '@fieldhouse/messaging';
import { EXPORT_FORMATS } from '../data/exports.ts';
import { FIELD_TYPES } from './types.ts';
import { STATUSES } from './transitions.ts';

/**
 * Every change the collection service announces, declared once (issue 33; docs/webhooks.md,
 * "Area A"): the messages its workers consume and every webhook kind, each with its payload's
 * shape. The shape gives the payload's TypeScript type, its JSON Schema (the AsyncAPI document,
 * http/asyncapi-route.ts) and, for the webhooks, the SQL the generated triggers build it with
 * (migrations/webhook-triggers.ts): every key always present, null where its column is
 * nullable; only `links.download` comes and goes.
 *
 * The SQL expressions name the rows of the triggers: `n` the new submission or export row, `o`
 * the old one, `p` its project, `h` the `submission_history` row, `u` the reviewer's user row.
 */

const time = (sql: string) => t.time({ sql });
const nullableTime = (sql: string, description?: string) =>
  t.nullable(t.time({ sql }), description === undefined ? {} : { description });
const id = (sql: string) => t.integer({ sql });
const coordinate = (sql: string, description: string) => t.nullable(t.number({ sql }), { description });
const status = (sql: string) => t.oneOf(STATUSES, { sql });
const workspaceId = (sql: string) => t.integer({ sql, description: 'The workspace of the subscription.' });

/**
 * The stored answers: one entry per answered field (a photo's value is `{photo_id, content_type,
 * size, url}`). Form model of issue 34 (docs/collection.md, "Submissions"): a group or note has
 * no entry (a group's fields are entries at its level); a repeat has one entry whose value is
 * its instances, each an array of entries of this same shape (nested repeats likewise). The
 * payload is the stored `data` as it is, so a flat form's bytes are unchanged.
 */
const entries = (sql: string) =>
  t.json<Array<{ field_uuid: string; type: (typeof FIELD_TYPES)[number]; value?: unknown }>>(
    {
      type: 'array',
      description:
        'Submission data (spec 2.1): one entry per answered field. Groups and notes have no entry; a `repeat` entry holds its instances, each an array of entries of this shape.',
      items: entrySchema(2),
    },
    sql,
  );

/**
 * The JSON Schema of one entry: an answer, or a repeat whose instances are described `depth`
 * levels down (below that, an instance's entries are `{field_uuid, type, value}` objects with
 * any value).
 */
function entrySchema(depth: number): Record<string, unknown> {
  const entry = (type: object, value: object) => ({
    type: 'object',
    required: ['field_uuid', 'type'],
    properties: { field_uuid: { type: 'string', format: 'uuid' }, type, value },
  });
  const answer = { description: "The answer, in the field type's shape." };
  if (depth === 0) return entry({ type: 'string', enum: [...FIELD_TYPES] }, answer);
  return {
    anyOf: [
      entry({ type: 'string', enum: FIELD_TYPES.filter((t) => t !== 'repeat') }, answer),
      entry(
        { type: 'string', const: 'repeat' },
        {
          type: ['array', 'null'],
          description: 'The instances of the repeat, each an array of entries (nested repeats likewise).',
          items: { type: 'array', items: entrySchema(depth - 1) },
        },
      ),
    ],
  };
}

/** The location of submission row `r`. */
const coordinates = (r: string) => ({
  latitude: coordinate(`${r}.latitude`, 'Degrees (WGS 84); null without a location.'),
  longitude: coordinate(`${r}.longitude`, 'Degrees (WGS 84); null without a location.'),
  altitude: coordinate(`${r}.altitude`, 'Metres; null if not given.'),
  precision: coordinate(`${r}.precision`, 'Metres; null if not given.'),
});

/** Submission row `r`: every column of a submission row (data/submissions.ts `SUBMISSION_COLUMNS`). */
const submission = (r: string) =>
  t.object({
    id: id(`${r}.id`),
    project_id: id(`${r}.project_id`),
    form_version_id: id(`${r}.form_version_id`),
    collector_id: t.nullable(t.integer({ sql: `${r}.collector_id` }), {
      description: 'null: an anonymous public submission.',
    }),
    status: status(`${r}.status`),
    ...coordinates(r),
    data: entries(`${r}.data`),
    consent: t.nullable(t.boolean({ sql: `${r}.consent` }), {
      description: 'The consent given; null if not asked.',
    }),
    created_at: time(`${r}.created_at`),
    updated_at: time(`${r}.updated_at`),
    submitted_at: nullableTime(`${r}.submitted_at`),
  });

/** The links of submission `submissionId` of project `projectId` (SQL expressions). */
const submissionLinks = (projectId: string, submissionId: string) =>
  t.object({
    submission: t.string({
      sql: `'/api/v1/projects/' || ${projectId} || '/submissions/' || ${submissionId}`,
      description: '`/api/v1/projects/{project_id}/submissions/{submission_id}`',
    }),
    project: t.string({
      sql: `'/api/v1/projects/' || ${projectId}`,
      description: '`/api/v1/projects/{project_id}`',
    }),
  });

/** Export row `n` of `export.completed` or `export.failed`, its `status` the kind's. */
const exportData = <O extends 'completed' | 'failed'>(outcome: O) =>
  t.object({
    workspace_id: workspaceId('n.workspace_id'),
    export: t.object({
      id: t.uuid({ sql: 'n.id' }),
      project_id: id('n.project_id'),
      format: t.oneOf(EXPORT_FORMATS, { sql: 'n.format' }),
      filters: t.json<Record<string, unknown>>(
        { type: 'object', description: 'The list filters of the request, as given.' },
        'n.filters',
      ),
      status: t.literal(outcome, { sql: 'n.status' }),
      rows: t.integer({ sql: 'n.rows_written', minimum: 0, description: 'Rows written.' }),
      error: t.nullable(t.string({ sql: 'n.error' }), {
        description: 'Why it failed; null when it did not.',
      }),
      requested_by: t.integer({ sql: 'n.requested_by', description: 'The user who asked for it.' }),
      created_at: time('n.created_at'),
      finished_at: nullableTime('n.finished_at'),
      expires_at: nullableTime('n.expires_at', 'When the file is deleted.'),
    }),
    links: t.object({
      export: t.string({ sql: `'/api/v1/exports/' || n.id`, description: '`/api/v1/exports/{job_id}`' }),
      ...(outcome === 'completed'
        ? {
            download: t.string({
              sql: `'/api/v1/exports/' || n.id || '/download'`,
              description: '`/api/v1/exports/{job_id}/download`',
            }),
          }
        : {}),
    }),
  });

/** The list (see the top of this file). */
export const changes = defineChanges({
  source: 'collection',
  webhookScope: t.object({ workspace_id: t.integer(), project_id: t.integer() }),
  changes: {
    'email.requested': message({
      summary: 'An e-mail to send.',
      description:
        "Consumed by the service's mail worker (workers/email.ts), which sends it once per message id.",
      data: t.json<EmailRequested>({ type: 'object', description: 'libs/contracts `EmailRequested`.' }),
    }),
    'export.requested': message({
      summary: 'An export job was queued.',
      description: "Consumed by the service's export worker (workers/exports.ts).",
      data: t.object({ export_id: t.uuid() }),
    }),
    'submission.created': webhook({
      summary: 'A submission was stored.',
      description: 'Sent when a submission is stored, whichever path: the API, a web form, an offline sync.',
      data: t.object({
        workspace_id: workspaceId('p.workspace_id'),
        submission: submission('n'),
        links: submissionLinks('n.project_id', 'n.id'),
      }),
    }),
    'submission.updated': webhook({
      summary: 'The data or location of a submission changed.',
      description:
        'Sent when the answers or the location of a submission change (a status change alone is ' +
        '`submission.reviewed`); `previous` holds what they were.',
      data: t.object({
        workspace_id: workspaceId('p.workspace_id'),
        submission: t.describe(submission('n'), { description: 'The submission as changed.' }),
        previous: t.object(
          { data: entries('o.data'), ...coordinates('o') },
          { description: 'The answers and location before the change.' },
        ),
        links: submissionLinks('n.project_id', 'n.id'),
      }),
    }),
    'submission.reviewed': webhook({
      summary: 'The status of a submission changed.',
      description: 'Sent when the review status of a submission changes (not when it is created).',
      data: t.object({
        workspace_id: workspaceId('p.workspace_id'),
        submission_id: id('h.submission_id'),
        project_id: id('p.id'),
        from: status('h.from_status'),
        to: status('h.to_status'),
        comment: t.nullable(t.string({ sql: 'h.comment' }), {
          description: 'The comment of the change, if any.',
        }),
        reviewer: t.nullable(
          t.object({
            id: id('h.user_id'),
            name: t.nullable(t.string({ sql: 'u.name' }), {
              description: 'null when the user is not known to the service yet.',
            }),
          }),
          { nullWhen: 'h.user_id IS NULL', description: 'Who changed it; null when no user is recorded.' },
        ),
        reviewed_at: time('h.created_at'),
        links: submissionLinks('p.id', 'h.submission_id'),
      }),
    }),
    'submission.deleted': webhook({
      summary: 'A submission was deleted.',
      description:
        'Sent when a submission is deleted on its own; deleting its project or its workspace sends ' +
        'nothing for the submissions that go with it.',
      data: t.object({
        workspace_id: workspaceId('p.workspace_id'),
        submission: t.describe(submission('o'), { description: 'The submission as it was.' }),
        deleted_at: time('clock_timestamp()'),
        links: t.object({
          project: t.string({
            sql: `'/api/v1/projects/' || o.project_id`,
            description: '`/api/v1/projects/{project_id}`',
          }),
        }),
      }),
    }),
    'export.completed': webhook({
      summary: 'An export finished: its file can be downloaded.',
      description: 'Sent when an export job completes; `links.download` is its file until `expires_at`.',
      data: exportData('completed'),
    }),
    'export.failed': webhook({
      summary: 'An export failed.',
      description: 'Sent when an export job fails for good; `export.error` says why.',
      data: exportData('failed'),
    }),
  },
});
