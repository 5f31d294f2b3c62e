import type { Request } from 'express';
import Joi from 'joi';
import { idSchema } from '@fieldhouse/http';
import type { Knex } from 'knex';
import { EMAIL_REQUESTED, Exchanges, envelope, type EmailRequested } from '@fieldhouse/contracts';
import { writeOutbox } from '@fieldhouse/messaging';
import { forbidden, validate, validationFailed, type FieldErrors } from '@fieldhouse/problem';
import { can, type Role } from '../domain/roles.ts';
import { windowProblem, type PublicationSettings } from '../domain/publication.ts';
import { searchTextOf, validateEntries, type DataEntry } from '../domain/submission-validation.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import { findVersion, listFields, type FieldRow } from '../data/versions.ts';
import {
  collectorHasSubmission,
  countProjectSubmissions,
  insertPhotos,
  insertSubmission,
  type SubmissionRow,
} from '../data/submissions.ts';
import { openToNonMembers } from './access.ts';
import type { CollectionContext } from './context.ts';
import { intakePhotos, type PendingPhoto } from './photo-intake.ts';

/** Location columns of a submission body (degrees, metres). */
export const coords = {
  latitude: Joi.number().min(-90).max(90).allow(null),
  longitude: Joi.number().min(-180).max(180).allow(null),
  altitude: Joi.number().allow(null),
  precision: Joi.number().min(0).allow(null),
};

/** Spec 2.1 submission body, plus `status` (draft or submitted, default submitted) and `consent`. */
export const createSchema = Joi.object({
  form_version_id: idSchema().required(),
  ...coords,
  data: Joi.array().max(2000).required(),
  status: Joi.string().valid('draft', 'submitted').default('submitted'),
  consent: Joi.boolean(),
});

export interface CreateBody {
  form_version_id: number;
  latitude?: number | null;
  longitude?: number | null;
  altitude?: number | null;
  precision?: number | null;
  data: unknown[];
  status: 'draft' | 'submitted';
  consent?: boolean;
}

/**
 * Fields of published versions by version id: a published version never changes, so its
 * fields are cached in the process (bounded; cleared when full).
 */
export type PublishedCache = Map<number, { projectId: number; fields: FieldRow[] }>;

/** Loads the version's fields, refusing a version of another project or a draft (422). */
export async function publishedFields(
  db: Knex,
  publishedCache: PublishedCache,
  project: ProjectRow,
  versionId: number,
): Promise<FieldRow[]> {
  const cached = publishedCache.get(versionId);
  if (cached && cached.projectId === project.id) return cached.fields;
  const v = await findVersion(db, versionId);
  if (!v || v.project_id !== project.id)
    throw validationFailed({ form_version_id: ['This form version does not belong to this project.'] });
  if (v.status !== 'published')
    throw validationFailed({
      form_version_id: ['This form version is a draft; submit to a published version.'],
    });
  const fields = await listFields(db, v.id);
  if (publishedCache.size >= 1000) publishedCache.clear();
  publishedCache.set(v.id, { projectId: project.id, fields });
  return fields;
}

/** Validates entries and photo files together; 422 listing every bad entry. */
export function checkEntries(
  data: unknown,
  fields: FieldRow[],
  files: Map<string, Buffer>,
  enforceRequired: boolean,
  keptPhotoIds?: Set<string>,
): DataEntry[] {
  const photoUuids = new Set(fields.filter((f) => f.type === 'photo').map((f) => f.uuid));
  const errors: FieldErrors = {};
  for (const name of files.keys())
    if (!photoUuids.has(name))
      errors[`files.${name}`] = ['no photo field of this form version has this uuid'];
  const result = validateEntries(data, fields, {
    enforceRequired,
    uploadedPhotos: new Set(files.keys()),
    ...(keptPhotoIds ? { keptPhotoIds } : {}),
  });
  Object.assign(errors, result.errors);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return result.entries;
}

/** The e-mail job of `notify_on_submission` (spec 6). */
function notification(project: ProjectRow, s: SubmissionRow, settings: PublicationSettings): EmailRequested {
  return {
    to: settings.notification_emails,
    subject: `New submission to ${project.name}`,
    text:
      `A new submission (#${s.id}, status ${s.status}) was received for project "${project.name}" ` +
      `at ${s.created_at.toISOString()}.`,
    reason: 'submission-created',
  };
}

/** Writes photo bytes to the blob store and their rows; call it inside {@link photoTransaction}. */
export async function storePhotos(
  ctx: CollectionContext,
  trx: Knex.Transaction,
  submissionId: number,
  photos: PendingPhoto[],
) {
  for (const p of photos) await ctx.blobs.put(p.blob_key, p.bytes, p.content_type);
  await insertPhotos(
    trx,
    photos.map(({ bytes: _bytes, ...row }) => ({ ...row, submission_id: submissionId })),
  );
}

/**
 * `ctx.db.transaction(work)` for a write that stores new `photos` ({@link storePhotos}). The blob
 * store is not transactional: when the transaction fails, at any step, the photos' bytes are
 * deleted before the error goes on, so a refused or failed write leaves no file behind.
 */
export async function photoTransaction<T>(
  ctx: CollectionContext,
  photos: PendingPhoto[],
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  try {
    return await ctx.db.transaction(work);
  } catch (err) {
    for (const p of photos) {
      await ctx.blobs.delete(p.blob_key).catch((e: unknown) => {
        ctx.logger.warn('could not delete the photo of a failed write', { key: p.blob_key, err: e });
      });
    }
    throw err;
  }
}

/**
 * The project's settings when it accepts a submission from this caller now.
 * @throws ProblemError 422 unpublished or outside the collection window, 403 role may not submit.
 */
export function assertAccepting(project: ProjectRow, role: Role | null, req: Request): PublicationSettings {
  const open = openToNonMembers(project, req);
  if (!project.is_published)
    throw validationFailed(
      { project: ['This project is not published: it accepts no submissions.'] },
      { code: 'project_not_published' },
    );
  if (!open && !(role && can(role, 'submission.create')))
    throw forbidden(`Your role in this workspace (${role}) may not submit data.`);
  const settings = settingsOf(project);
  const closed = windowProblem(settings, new Date());
  if (closed) throw validationFailed({ project: [closed.message] }, { code: closed.code });
  return settings;
}

/**
 * Creates one submission under every publication rule (spec 2.1, 8; docs/collection.md,
 * "Submissions"): used by `POST /projects/{id}/submissions` and by each item of `POST /sync`,
 * so both accept and refuse exactly the same things.
 * - `raw`: the body of spec 2.1 (validated here); `files`: uploaded photos by field uuid.
 * - `afterInsert`: runs in the submission's transaction (sync records its item identity there;
 *   if it throws, nothing is written).
 * @throws ProblemError 422 (unpublished, closed window, limit reached, second submission,
 *   missing consent, draft or foreign version, bad entries), 413 (photo too large), 403 (role).
 */
export async function createSubmission(
  ctx: CollectionContext,
  cache: PublishedCache,
  req: Request,
  project: ProjectRow,
  role: Role | null,
  raw: unknown,
  files: Map<string, Buffer>,
  afterInsert?: (trx: Knex.Transaction, s: SubmissionRow) => Promise<void>,
): Promise<SubmissionRow> {
  const settings = assertAccepting(project, role, req);

  const body = validate(createSchema, raw, { convert: false }) as CreateBody;
  if (settings.require_consent && body.consent !== true)
    throw validationFailed(
      { consent: ['This project requires consent: send "consent": true after showing consent_text.'] },
      { code: 'consent_required' },
    );
  const fields = await publishedFields(ctx.db, cache, project, body.form_version_id);
  const checked = checkEntries(body.data, fields, files, body.status === 'submitted');
  const { entries, photos } = await intakePhotos(checked, files, project.id, ctx.photoMaxBytes);
  const collectorId = req.caller.userId;

  const row = {
    project_id: project.id,
    form_version_id: body.form_version_id,
    collector_id: collectorId,
    status: body.status,
    latitude: body.latitude ?? null,
    longitude: body.longitude ?? null,
    altitude: body.altitude ?? null,
    precision: body.precision ?? null,
    data: entries,
    search_text: searchTextOf(entries, fields),
    consent: body.consent ?? null,
  };
  const notify = settings.notify_on_submission && settings.notification_emails.length > 0;
  const mustLock =
    settings.submission_limit !== null || (!settings.allow_multiple_submissions && collectorId !== null);
  // The common case (no limit to check, no photo, no e-mail) is one atomic statement,
  // group-committed with the submissions arriving meanwhile.
  const created =
    !mustLock && !notify && photos.length === 0 && !afterInsert
      ? await ctx.insertSubmission(row)
      : await photoTransaction(ctx, photos, async (trx) => {
          if (mustLock) await trx('projects').where({ id: project.id }).forUpdate().first('id');
          if (
            settings.submission_limit !== null &&
            (await countProjectSubmissions(trx, project.id)) >= settings.submission_limit
          )
            throw validationFailed(
              {
                project: [`This project has reached its submission limit (${settings.submission_limit}).`],
              },
              { code: 'submission_limit_reached' },
            );
          if (
            !settings.allow_multiple_submissions &&
            collectorId !== null &&
            (await collectorHasSubmission(trx, project.id, collectorId))
          )
            throw validationFailed(
              {
                project: [
                  'This project accepts one submission per collector, and you have already submitted.',
                ],
              },
              { code: 'already_submitted' },
            );
          const s = await insertSubmission(trx, row);
          await storePhotos(ctx, trx, s.id, photos);
          if (notify) {
            await writeOutbox(
              trx,
              'outbox',
              Exchanges.collection,
              envelope(Exchanges.collection, EMAIL_REQUESTED, notification(project, s, settings)),
            );
          }
          if (afterInsert) await afterInsert(trx, s);
          return s;
        });
  if (notify) ctx.outboxWritten();
  return created;
}
