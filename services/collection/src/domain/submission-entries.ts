import type { Db } from '../data/tx.ts';
import type { FieldErrors } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import type { ProjectRow } from '../data/projects.ts';
import { findVersion, listFields, type FieldRow } from '../data/versions.ts';
import type { SubmissionRow } from '../data/submissions.ts';
import { listSubmissionPhotos } from '../data/photos.ts';
import { photoRefOf } from './photo-intake.ts';
import { validateEntries, type DataEntry, type PhotoRef } from './submission-validation.ts';

/** Fields of published versions by version id, for one database. */
type PublishedCache = Map<number, { projectId: number; fields: FieldRow[] }>;

/**
 * One cache per database (so two services in one process, as in tests, never share one): a
 * published version never changes, so its fields are kept (at most 1,000 versions; cleared
 * when full).
 */
const caches = new WeakMap<Db, PublishedCache>();

/**
 * The fields of the published version `versionId` of `project`.
 * @throws ProblemError 422 (`form_version_id`) for a version of another project or a draft.
 */
export async function publishedFields(db: Db, project: ProjectRow, versionId: number): Promise<FieldRow[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(versionId);
  if (cached && cached.projectId === project.id) return cached.fields;
  const v = await findVersion(db, versionId);
  if (!v || v.project_id !== project.id)
    throw problems.validationFailed({
      errors: { form_version_id: ['This form version does not belong to this project.'] },
    });
  if (v.status !== 'published')
    throw problems.validationFailed({
      errors: { form_version_id: ['This form version is a draft; submit to a published version.'] },
    });
  const fields = await listFields(db, v.id);
  if (cache.size >= 1000) cache.clear();
  cache.set(v.id, { projectId: project.id, fields });
  return fields;
}

/**
 * Validates entries (spec 2.1; domain/submission-validation.ts) and uploaded photo files
 * (`files`: bytes by photo field uuid) together.
 * @param enforceRequired false for drafts, which may be incomplete.
 * @param keptPhotos photos already stored for the submission ({@link keptPhotosOf}), which an
 *   entry may keep by `photo_id`; the entry's value is then the stored reference.
 * @returns the entries, kept photos' values made by the server.
 * @throws ProblemError 422 listing every bad entry (`data.3.value`...) and file (`files.<uuid>`).
 */
export function checkEntries(
  data: unknown,
  fields: FieldRow[],
  files: ReadonlyMap<string, Buffer>,
  enforceRequired: boolean,
  keptPhotos?: ReadonlyMap<string, PhotoRef>,
): DataEntry[] {
  const photoUuids = new Set(fields.filter((f) => f.type === 'photo').map((f) => f.uuid));
  const errors: FieldErrors = {};
  for (const name of files.keys())
    if (!photoUuids.has(name))
      errors[`files.${name}`] = ['no photo field of this form version has this uuid'];
  const result = validateEntries(data, fields, {
    enforceRequired,
    uploadedPhotos: new Set(files.keys()),
    ...(keptPhotos ? { keptPhotos } : {}),
  });
  Object.assign(errors, result.errors);
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  return result.entries;
}

/**
 * The photos a submission holds, which entries of a change may keep: those its data names now,
 * each as the server stored it in table `photos` ({@link photoRefOf}: id, sniffed type, size,
 * the service's URL), never as the data says it (issue 31: a value stored before this rule may
 * carry a client's URL).
 * @returns a map by photo id (empty when the submission has no photo).
 */
export async function keptPhotosOf(db: Db, s: SubmissionRow): Promise<Map<string, PhotoRef>> {
  const named = new Set(
    s.data
      .filter((e) => e.type === 'photo' && e.value && typeof e.value === 'object')
      .map((e) => (e.value as { photo_id?: unknown }).photo_id),
  );
  const kept = new Map<string, PhotoRef>();
  if (named.size === 0) return kept;
  for (const row of await listSubmissionPhotos(db, s.id))
    if (named.has(row.id)) kept.set(row.id, photoRefOf(row));
  return kept;
}
