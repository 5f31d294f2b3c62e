import type { Db } from '../data/tx.ts';
import type { FieldErrors } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import type { ProjectRow } from '../data/projects.ts';
import { findVersion, listFields, type FieldRow } from '../data/versions.ts';
import type { SubmissionRow } from '../data/submissions.ts';
import { listSubmissionPhotos } from '../data/photos.ts';
import { filePartOf, forEachEntry, photoRefOf } from './photo-intake.ts';
import { entryLevels, validateEntries, type DataEntry, type PhotoRef } from './submission-validation.ts';
import type { CompiledForm } from '@fieldhouse/form-logic';
import { formOfVersion } from './form-engine.ts';

/**
 * A published version as submissions are checked against it: its fields in form order, its
 * languages, and its compiled form (null for a flat form without logic; domain/form-engine.ts).
 */
export interface VersionForm {
  projectId: number;
  fields: FieldRow[];
  languages: string[];
  defaultLanguage: string | null;
  compiled: CompiledForm | null;
}

/**
 * One cache per database (so two services in one process, as in tests, never share one): a
 * published version never changes, so its fields and compiled form are kept (at most 1,000
 * versions; the oldest dropped first): the hot path compiles each version once per process.
 */
const caches = new WeakMap<Db, Map<number, VersionForm>>();

/**
 * The form of version `versionId` (fields, languages, compiled logic); cached when published.
 * @returns undefined for an unknown version.
 */
export async function versionForm(db: Db, versionId: number): Promise<VersionForm | undefined> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(versionId);
  if (cached) return cached;
  const v = await findVersion(db, versionId);
  if (!v) return undefined;
  const fields = await listFields(db, v.id);
  const form: VersionForm = {
    projectId: v.project_id,
    fields,
    languages: v.languages ?? [],
    defaultLanguage: v.default_language ?? null,
    compiled: formOfVersion(v, fields),
  };
  if (v.status !== 'published') return form;
  if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
  cache.set(v.id, form);
  return form;
}

/**
 * The form of the published version `versionId` of `project` ({@link versionForm}).
 * @throws ProblemError 422 (`form_version_id`) for a version of another project or a draft.
 */
export async function publishedForm(db: Db, project: ProjectRow, versionId: number): Promise<VersionForm> {
  const cached = caches.get(db)?.get(versionId);
  if (cached && cached.projectId === project.id) return cached;
  const v = await findVersion(db, versionId);
  if (!v || v.project_id !== project.id)
    throw problems.validationFailed({
      errors: { form_version_id: ['This form version does not belong to this project.'] },
    });
  if (v.status !== 'published')
    throw problems.validationFailed({
      errors: { form_version_id: ['This form version is a draft; submit to a published version.'] },
    });
  return (await versionForm(db, v.id))!;
}

/**
 * The language of a submission's messages: the first of the request's `Accept-Language` tags
 * (by `q`) that the version has (exactly, or by its primary subtag), else the version's default.
 */
export function messageLanguage(form: VersionForm, acceptLanguage: string | undefined): string | null {
  const fallback = form.defaultLanguage ?? form.languages[0] ?? null;
  if (!acceptLanguage || !form.languages.length) return fallback;
  const tags = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)).find(Boolean);
      return { tag: tag!.trim().toLowerCase(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((t) => t.tag && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of tags) {
    const exact = form.languages.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const primary = form.languages.find((l) => l.toLowerCase().split('-')[0] === tag.split('-')[0]);
    if (primary) return primary;
  }
  return fallback;
}

/** How {@link checkEntries} checks: drafts, the language of messages, photos kept. */
export interface CheckOptions {
  /** false for drafts, which may be incomplete. */
  enforceRequired: boolean;
  /** Language of the form's messages ({@link messageLanguage}). */
  language?: string | null;
  /** Photos already stored for the submission ({@link keptPhotosOf}). */
  keptPhotos?: ReadonlyMap<string, PhotoRef>;
}

/**
 * Validates entries (spec 2.1; domain/submission-validation.ts) and uploaded photo files
 * (`files`: bytes by photo field uuid) together, then, for a form with logic, the logic with the
 * engine (form model of issue 34, "Rules enforced": constraints with the form's message in
 * `opts.language`, required where relevant, answers to questions that are not relevant, repeat
 * counts, choice filters; a draft skips only the required answers) and the calculations
 * recomputed (a client's value for a `calculate` field replaced).
 * @returns the entries, kept photos' values made by the server, calculations the service's.
 * @throws ProblemError 422 listing every bad entry (`data.3.value`, `data.5.value.1.2.value`...)
 *   and file (`files.<uuid>`).
 */
export function checkEntries(
  data: unknown,
  form: VersionForm,
  files: ReadonlyMap<string, Buffer>,
  opts: CheckOptions,
): DataEntry[] {
  const { fields, compiled } = form;
  const levels = entryLevels(fields);
  const photoUuids = new Set(
    fields.filter((f) => f.type === 'photo' && levels.get(f.uuid) === null).map((f) => f.uuid),
  );
  const errors: FieldErrors = {};
  const result = validateEntries(data, fields, {
    enforceRequired: opts.enforceRequired && !compiled,
    uploadedPhotos: new Set(files.keys()),
    ...(opts.keptPhotos ? { keptPhotos: opts.keptPhotos } : {}),
  });
  const named = new Set<string>();
  forEachEntry(result.entries, (e) => {
    const part = e.type === 'photo' ? filePartOf(e.value) : undefined;
    if (part !== undefined) named.add(part);
  });
  for (const name of files.keys())
    if (!photoUuids.has(name) && !named.has(name))
      errors[`files.${name}`] = [
        'no photo field at the top level of this form version has this uuid, and no photo entry names this file ({"file": "<part name>"})',
      ];
  Object.assign(errors, result.errors);
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  if (!compiled) return result.entries;
  return checkLogic(compiled, result.entries, files, opts);
}

/** An uploaded photo's stand-in value while the engine checks (an answer, not empty). */
const UPLOADED = { uploaded: true };

/** The engine's part of {@link checkEntries}: logic errors, or the entries with calculations. */
function checkLogic(
  compiled: CompiledForm,
  entries: DataEntry[],
  files: ReadonlyMap<string, Buffer>,
  opts: CheckOptions,
): DataEntry[] {
  // A photo sent as a file has no value in its entry yet: it answers the question all the same.
  const standIns = new Map<DataEntry, DataEntry>();
  const given = entries.map((e) => {
    if (e.type !== 'photo' || !files.has(e.field_uuid) || e.value !== null) return e;
    const standIn = { ...e, value: UPLOADED };
    standIns.set(standIn, e);
    return standIn;
  });
  const listed = new Set(entries.map((e) => e.field_uuid));
  for (const uuid of files.keys())
    if (!listed.has(uuid) && compiled.byUuid.get(uuid))
      given.push({ field_uuid: uuid, type: 'photo', value: UPLOADED });
  const out = compiled.validate(given, {
    draft: !opts.enforceRequired,
    language: opts.language ?? null,
  });
  if (Object.keys(out.errors).length) throw problems.validationFailed({ errors: out.errors });
  return out.entries
    .filter((e) => e.value !== UPLOADED || standIns.has(e as DataEntry))
    .map((e) => standIns.get(e as DataEntry) ?? (e as DataEntry));
}

/**
 * The photos a submission holds, which entries of a change may keep: those its data names now
 * (at any level, repeat instances included),
 * each as the server stored it in table `photos` ({@link photoRefOf}: id, sniffed type, size,
 * the service's URL), never as the data says it (issue 31: a value stored before this rule may
 * carry a client's URL).
 * @returns a map by photo id (empty when the submission has no photo).
 */
export async function keptPhotosOf(db: Db, s: SubmissionRow): Promise<Map<string, PhotoRef>> {
  const named = new Set<unknown>();
  forEachEntry(s.data, (e) => {
    if (e.type === 'photo' && e.value && typeof e.value === 'object')
      named.add((e.value as { photo_id?: unknown }).photo_id);
  });
  const kept = new Map<string, PhotoRef>();
  if (named.size === 0) return kept;
  for (const row of await listSubmissionPhotos(db, s.id))
    if (named.has(row.id)) kept.set(row.id, photoRefOf(row));
  return kept;
}
