import Joi from 'joi';
import { idSchema, pageQuerySchema, pathUuidSchema, pageOf, pathIdParam } from '@fieldhouse/http';
import type { SubmissionValues } from '../domain/submission-create.ts';
import type { HistoryRow, SubmissionRow } from '../domain/submission-read.ts';
import type { SyncResult } from '../domain/submission-sync.ts';
import type { SubmissionChange } from '../domain/submission-update.ts';
import type { VersionRow } from '../domain/submission-versions.ts';
import { STATUSES } from '../domain/transitions.ts';
import { listFiltersSchema } from '../domain/list-filters.ts';

// ---- path parameters -------------------------------------------------------------------

/** `{project_id}` of the submission routes (a bad one: {@link pathId}'s 404, `errors.projectId`). */
export const projectParams = Joi.object<{ project_id: number }>({ project_id: pathIdParam() });

/** `{project_id}/submissions/{submission_id}` (submission ids are bigint; bad ones: `errors.submissionId`). */
export const submissionParams = Joi.object<{ project_id: number; submission_id: number }>({
  project_id: pathIdParam(),
  submission_id: pathIdParam('bigint'),
});

/** `{photo_id}`: the UUID of a stored photo (the `photo_id` of a photo value). */
export const photoParams = Joi.object<{ photo_id: string }>({ photo_id: pathUuidSchema().failover('-') });

// ---- requests ----------------------------------------------------------------------------

/** Location columns of a submission body (degrees, metres); null clears a value. */
const coords = {
  latitude: Joi.number().min(-90).max(90).allow(null),
  longitude: Joi.number().min(-180).max(180).allow(null),
  altitude: Joi.number().allow(null),
  precision: Joi.number().min(0).allow(null),
};

/** A data entry as sent (spec 2.1): checked against the form version's fields by the use case. */
const dataEntries = Joi.array()
  .max(2000)
  .description('Data entries `{field_uuid, type, value}` (spec 2.1), at most 2,000');

/**
 * Spec 2.1 submission body (`POST /projects/{project_id}/submissions`, JSON or the `submission`
 * part of a multipart body), plus `status` (draft or submitted, default submitted) and
 * `consent`. Types are not converted (`"1"` is not a number).
 */
export const createSubmissionBody = Joi.object<SubmissionValues>({
  form_version_id: idSchema().required(),
  ...coords,
  data: dataEntries.required(),
  status: Joi.string().valid('draft', 'submitted').default('submitted'),
  consent: Joi.boolean().description('Required `true` when the project requires consent'),
}).prefs({ convert: false });

/** Body of `PUT /projects/{project_id}/submissions/{submission_id}`: a status change and/or new data. */
export const updateSubmissionBody = Joi.object<SubmissionChange>({
  status: Joi.string().valid(...STATUSES),
  comment: Joi.string().trim().max(5000).allow('', null).description('Recorded with a status change'),
  data: dataEntries,
  ...coords,
})
  .or('status', 'data', 'latitude', 'longitude', 'altitude', 'precision')
  .prefs({ convert: false });

/** Query of `GET /projects/{project_id}/submissions`: the page and the list filters (spec 4.1). */
export const listSubmissionsQuery = listFiltersSchema
  .keys(pageQuerySchema)
  .fork(['date_from', 'date_to'], (day) => day.description('Inclusive UTC day, YYYY-MM-DD'))
  .fork(['search'], (search) =>
    search.description('Words of text and choice values; each must start a word, all are required'),
  )
  .fork(['collector_id'], (id) => id.description('Only the submissions of this collector'));

const utc = Joi.string()
  .isoDate()
  .pattern(/(Z|[+-]00:?00)$/, 'UTC (ending in Z)');

/**
 * One item of `POST /sync`: spec 2.1's `local_id`, `data`, `client_updated_at`, plus what the
 * submission body has (`form_version_id`, which names the project; coordinates, `status`,
 * `consent`). Each item is parsed on its own: a bad one is its `rejected` result.
 */
export const syncItemSchema = Joi.object({
  local_id: Joi.string().min(1).max(200).required(),
  form_version_id: idSchema().required(),
  client_updated_at: utc.required().description('UTC ISO 8601, ending in Z'),
  data: dataEntries.required(),
  status: Joi.string().valid('draft', 'submitted').default('submitted'),
  consent: Joi.boolean(),
  ...coords,
});

/** The envelope of spec 2.1 "Synchronisation request" (items parsed one by one). */
export const syncBatchBody = Joi.object<{ device_id: string; submissions: unknown[] }>({
  device_id: Joi.string().trim().min(1).max(200).required(),
  submissions: Joi.array().required(),
});

/** The synchronisation request as documented: the envelope with its items' schema. */
export const syncRequestDocumented = syncBatchBody.keys({
  submissions: Joi.array().items(syncItemSchema).max(500).required(),
});

// ---- responses ---------------------------------------------------------------------------

/** A stored data entry (spec 2.1); a photo's value is `{photo_id, content_type, size, url}`. */
const DataEntry = Joi.object({
  field_uuid: Joi.string().required(),
  type: Joi.string().required(),
  value: Joi.any(),
}).id('DataEntry');

/** One status change of a submission (its creation is the first). */
const HistoryEntry = Joi.object({
  from_status: Joi.string()
    .valid(...STATUSES)
    .allow(null)
    .required(),
  to_status: Joi.string()
    .valid(...STATUSES)
    .required(),
  user_id: Joi.number().integer().allow(null).required(),
  user_name: Joi.string()
    .allow(null)
    .description('Name of `user_id` (null: anonymous, or not known to the service yet)'),
  comment: Joi.string().allow(null).required(),
  created_at: Joi.date().iso().required(),
}).id('SubmissionHistoryEntry');

/** A submission (spec 2.1); the detail, create and update answers add its status `history`. */
const Submission = Joi.object({
  id: Joi.number().integer().required(),
  project_id: Joi.number().integer().required(),
  form_version_id: Joi.number().integer().required(),
  collector_id: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('null: an anonymous public submission'),
  collector_name: Joi.string()
    .allow(null)
    .description('Name of `collector_id` (detail answers; null: anonymous, or not known to the service yet)'),
  status: Joi.string()
    .valid(...STATUSES)
    .required(),
  latitude: Joi.number().allow(null).required(),
  longitude: Joi.number().allow(null).required(),
  altitude: Joi.number().allow(null).required(),
  precision: Joi.number().allow(null).required(),
  consent: Joi.boolean().allow(null).required(),
  data: Joi.array().items(DataEntry).required(),
  created_at: Joi.date().iso().required(),
  updated_at: Joi.date().iso().required(),
  submitted_at: Joi.date().iso().allow(null).required(),
  history: Joi.array().items(HistoryEntry).description('Status history, oldest first (detail answers)'),
}).id('Submission');

/** `{data: Submission}`. */
export const submissionEnvelope = Joi.object({ data: Submission.required() });

/** The pagination envelope of spec 2.1 over submissions. */
export const submissionPage = pageOf(Submission);

/** Result of one sync item (docs/collection.md, "Offline synchronisation"). */
const SyncResultSchema = Joi.object({
  local_id: Joi.string().allow(null).required(),
  id: Joi.number().integer().allow(null).required().description('Server id of the submission'),
  status: Joi.string().valid('created', 'updated', 'unchanged', 'conflict', 'rejected').required(),
  client_updated_at: Joi.date().iso().description('The item version the server holds after the sync'),
  code: Joi.string().description('Why it was rejected or is a conflict (`stale_item`)'),
  message: Joi.string(),
  errors: Joi.object().unknown(true).description('Messages by member, as in a 422 problem'),
  server: Submission,
}).id('SyncResult');

/** Answer of `POST /sync`. */
export const syncResponse = Joi.object({
  data: Joi.object({
    server_time: Joi.date().iso().required().description('Send it as the next sync reference'),
    device_id: Joi.string().required(),
    results: Joi.array().items(SyncResultSchema).required().description('One per item, in order'),
  }).required(),
});

/** A location of a version: degrees and metres, null when not recorded. */
const VersionLocation = Joi.object({
  latitude: Joi.number().allow(null).required(),
  longitude: Joi.number().allow(null).required(),
  altitude: Joi.number().allow(null).required(),
  precision: Joi.number().allow(null).required(),
});

/** One edit of a submission (docs/collection.md, "Editing a submission and its versions"). */
const SubmissionVersion = Joi.object({
  number: Joi.number().integer().min(1).required().description('1 for the first edit, then 2, 3...'),
  user_id: Joi.number().integer().allow(null).required().description('Who made the edit'),
  user_name: Joi.string()
    .allow(null)
    .required()
    .description('Their name (null: not known to the service yet)'),
  created_at: Joi.date().iso().required(),
  changes: Joi.array()
    .items(
      Joi.object({
        field_uuid: Joi.string().required(),
        type: Joi.string().required(),
        before: Joi.any().description('The value before the edit (null: no answer)'),
        after: Joi.any().description('The value after the edit (null: no answer)'),
      }).id('SubmissionAnswerChange'),
    )
    .required()
    .description('The answers that changed, before → after'),
  location: Joi.object({ before: VersionLocation.required(), after: VersionLocation.required() })
    .allow(null)
    .required()
    .description("The submission's own location before and after, when the edit changed it"),
}).id('SubmissionVersion');

/** The pagination envelope over a submission's versions, newest first. */
export const versionPage = pageOf(SubmissionVersion);

// ---- shaping ---------------------------------------------------------------------------

const nameOf = (names: Map<number, string>, id: number | null) =>
  id === null ? null : (names.get(id) ?? null);

/** API shape of a version ({@link SubmissionVersion}). */
export const versionBody = (v: VersionRow) => ({
  number: v.number,
  user_id: v.user_id,
  user_name: v.user_name,
  created_at: v.created_at,
  changes: v.changes,
  location: v.location,
});

/**
 * API shape of a submission ({@link Submission}); with `history`, the detail; with `names` (user
 * id → name), `collector_name` and each history entry's `user_name`.
 */
export const submissionBody = (s: SubmissionRow, history?: HistoryRow[], names?: Map<number, string>) => ({
  id: s.id,
  project_id: s.project_id,
  form_version_id: s.form_version_id,
  collector_id: s.collector_id,
  ...(names ? { collector_name: nameOf(names, s.collector_id) } : {}),
  status: s.status,
  latitude: s.latitude,
  longitude: s.longitude,
  altitude: s.altitude,
  precision: s.precision,
  consent: s.consent,
  data: s.data,
  created_at: s.created_at,
  updated_at: s.updated_at,
  submitted_at: s.submitted_at,
  ...(history
    ? {
        history: history.map((h) => ({
          from_status: h.from_status,
          to_status: h.to_status,
          user_id: h.user_id,
          ...(names ? { user_name: nameOf(names, h.user_id) } : {}),
          comment: h.comment,
          created_at: h.created_at,
        })),
      }
    : {}),
});

/** API shape of a sync result ({@link SyncResultSchema}). */
export const syncResultBody = ({ server, ...result }: SyncResult) => ({
  ...result,
  ...(server ? { server: submissionBody(server) } : {}),
});
