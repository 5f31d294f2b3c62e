import type { BodyReader, PageRequest } from '@fieldhouse/http';
import {
  countFields,
  createVersion,
  deleteField,
  fieldJson,
  findField,
  findVersion,
  insertField,
  insertFields,
  lastPublishedVersion,
  listFields,
  listVersions,
  publishVersion,
  updateField,
  updateVersionLanguages,
  versionJson,
  type FieldInput,
  type VersionRow,
} from '../data/versions.ts';
import { lockProject } from '../data/projects.ts';
import { isUniqueViolation } from '../data/tx.ts';
import { requireAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import type { FieldRow } from '../data/versions.ts';
import {
  fieldCreateSchema,
  fieldShapeErrors,
  normaliseTexts,
  type FieldBody,
  type VersionLanguages,
} from './field-definition.ts';
import { assertFieldCompiles, compileFields, formProblem } from './form-engine.ts';
import { SELECT_TYPES } from './types.ts';
import { problems } from './problems.ts';

/** A form version as the API shows it (`field_count` when counted). */
export type VersionView = ReturnType<typeof versionJson>;
/** A field as the API shows it. */
export type FieldView = ReturnType<typeof fieldJson>;

/** 409 `version_frozen` for any change to a published (frozen) version. */
function assertDraft(v: VersionRow): void {
  if (v.status !== 'draft') throw problems.versionFrozen({ number: v.number });
}

/**
 * Body of `POST /projects/{id}/versions` (form model of issue 34: languages optional). An XLSForm
 * upload (issue 35, domain/xlsform-import.ts) is translated into this same command, with the
 * form's `fields` in form order and `refuseFields` turning their refusals into its own 422.
 */
export interface VersionCreate {
  copy_last_published: boolean;
  languages?: string[];
  default_language?: string | null;
  /** Fields of the new draft, in form order, as `POST /versions/{id}/fields` takes each. */
  fields?: unknown[];
  /** The problem for refused `fields` (default: 422 `validation_failed` keyed `fields.<i>.<property>`). */
  refuseFields?: (issues: FieldIssue[]) => Error;
}

/** One refusal of a field given with a new version ({@link VersionCreate.fields}). */
export interface FieldIssue {
  /** Index of the field in `fields`; -1 for the form as a whole. */
  index: number;
  /** The property refused: `name`, `label`, `relevant`, `choices.2.label`... */
  property: string;
  /** Why: `invalid`, `duplicate_name`, or the form engine's code (`syntax`, `unknown_reference`, `cycle`...). */
  reason: string;
  /** The English sentence. */
  message: string;
  /** For an expression: the 1-based column of the error in it. */
  column?: number;
}

/** The default refusal of a version's fields: 422 `validation_failed` keyed `fields.<i>.<property>`. */
function fieldsProblem(issues: FieldIssue[]): Error {
  const errors: Record<string, string[]> = {};
  for (const i of issues) (errors[`fields.${i.index}.${i.property}`] ??= []).push(i.message);
  return problems.validationFailed({ errors });
}

/**
 * The fields of a new version checked as {@link addField} checks one (the body's schema, texts
 * in the version's languages, choices and constraints for the type, unique names), then the
 * whole form compiled once (expressions, references, cycles, parents).
 * @returns the fields as stored (positions in list order), or every issue found.
 */
function checkedFields(
  languages: VersionLanguages,
  bodies: readonly unknown[],
): { inputs: FieldInput[]; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const inputs: FieldInput[] = [];
  const seen = new Map<string, number>();
  bodies.forEach((raw, index) => {
    const { value, error } = fieldCreateSchema.validate(raw, { abortEarly: false });
    if (error) {
      for (const d of error.details)
        issues.push({ index, property: d.path.join('.') || 'field', reason: 'invalid', message: d.message });
      return;
    }
    const body = value as FieldBody;
    const { field, errors } = normaliseTexts(body, languages);
    const merged = { ...field, position: index } as FieldInput;
    Object.assign(errors, fieldShapeErrors({ ...merged, logic: merged.logic ?? {} }));
    for (const [property, messages] of Object.entries(errors))
      for (const message of messages) issues.push({ index, property, reason: 'invalid', message });
    const first = seen.get(body.name);
    if (first !== undefined)
      issues.push({
        index,
        property: 'name',
        reason: 'duplicate_name',
        message: `${body.name} is the name of field ${first + 1} already: names are unique in a form`,
      });
    else seen.set(body.name, index);
    inputs.push({ ...merged, choices: merged.choices?.length ? merged.choices : null });
  });
  if (issues.length) return { inputs, issues };
  const compiled = compileFields(
    languages,
    inputs.map((f) => ({
      ...f,
      id: 0,
      uuid: '',
      parent: f.parent ?? null,
      logic: f.logic ?? {},
      translations: f.translations ?? {},
    })),
  );
  if (!compiled.ok)
    for (const e of compiled.errors)
      issues.push({
        index: e.field ? (seen.get(e.field) ?? -1) : -1,
        property: e.property,
        reason: e.code,
        message: e.message,
        ...(e.position ? { column: e.position.column } : {}),
      });
  return { inputs, issues };
}

/** Body of `PUT /versions/{id}`: a draft's languages. */
export interface VersionLanguagesInput {
  languages: string[];
  default_language?: string | null;
}

/**
 * A version's languages as stored: `default_language` one of `languages` (the first when not
 * given); none: a one-language form.
 * @returns undefined when the body sets none.
 * @throws 422 on `default_language` naming a language not listed.
 */
function languagesOf(input: {
  languages?: string[];
  default_language?: string | null;
}): { languages: string[]; default_language: string | null } | undefined {
  if (input.languages === undefined && input.default_language == null) return undefined;
  const languages = input.languages ?? [];
  const def = input.default_language ?? languages[0] ?? null;
  if (def !== null && !languages.includes(def))
    throw problems.validationFailed({
      errors: {
        default_language: [
          languages.length
            ? `default_language must be one of the languages (${languages.join(', ')})`
            : 'default_language needs languages',
        ],
      },
    });
  return { languages, default_language: def };
}

/** A duplicate field name in a version (unique index) as a 422 `duplicate_name` on `name`. */
async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw problems.duplicateName();
    throw err;
  }
}

/** One page of a project's form versions, newest first, with `field_count`. @throws 404 non-members. */
export async function listFormVersions(
  ctx: CollectionContext,
  actor: Actor,
  command: { projectId: number; page: BodyReader<PageRequest> },
): Promise<{ items: VersionView[]; total: number }> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.view',
    projectId: command.projectId,
  });
  const { rows, total } = await listVersions(
    ctx.db,
    project.id,
    command.page().page,
    command.page().per_page,
  );
  return { items: rows.map((v) => versionJson(v, v.field_count)), total };
}

/**
 * Creates a draft version (`form.edit`); with `copyLastPublished` it starts with the fields of
 * the last published version; with `fields` (an XLSForm upload, issue 35) it is created with
 * them, all checked first and stored in the version's transaction (all or nothing).
 * @param command.input read after the access check (an XLSForm is translated only then).
 * @throws 422 on `copy_last_published` when there is none, or both it and `fields`; the
 *   `refuseFields` problem (default 422 `validation_failed`) for refused fields; 404, 403 access.
 */
export async function createFormVersion(
  ctx: CollectionContext,
  actor: Actor,
  command: { projectId: number; input: BodyReader<VersionCreate> | (() => Promise<VersionCreate>) },
): Promise<VersionView> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'form.edit',
    projectId: command.projectId,
  });
  let copyFrom: number | null = null;
  const input = await command.input();
  const languages = languagesOf(input);
  let fields: FieldInput[] = [];
  if (input.fields) {
    if (input.copy_last_published)
      throw problems.validationFailed({
        errors: { copy_last_published: ['A version created with its fields copies no other version.'] },
      });
    const checked = checkedFields(languages ?? { languages: [], default_language: null }, input.fields);
    if (checked.issues.length) throw (input.refuseFields ?? fieldsProblem)(checked.issues);
    fields = checked.inputs;
  }
  if (input.copy_last_published) {
    const last = await lastPublishedVersion(ctx.db, project.id);
    if (!last)
      throw problems.validationFailed({
        errors: { copy_last_published: ['This project has no published version to copy.'] },
      });
    copyFrom = last.id;
  }
  const v = await ctx.inTransaction(async (tx) => {
    await lockProject(tx, project.id);
    const created = await createVersion(tx, project.id, copyFrom);
    await insertFields(tx, created.id, fields);
    return languages ? updateVersionLanguages(tx, created.id, languages) : created;
  });
  return versionJson(v, await countFields(ctx.db, v.id));
}

/** The version with its fields in form order (published ones also to collectors of an open form). @throws 404. */
export async function getFormVersion(ctx: CollectionContext, actor: Actor, versionId: number) {
  const { version } = await requireAccess(ctx, { actor, permission: 'project.open', versionId: versionId });
  return withFields(ctx, version);
}

/** A version as its API view with its fields in form order. */
async function withFields(ctx: CollectionContext, version: VersionRow) {
  const fields = await listFields(ctx.db, version.id);
  return { ...versionJson(version, fields.length), fields: fields.map(fieldJson) };
}

/**
 * The version a collector fills today: the project's current published version
 * (`current_version_id`) with its fields in form order, as {@link getFormVersion} gives it. Open
 * to the project's members and to the callers its `collect_access` admits, like the project
 * itself, so a web form can fetch it beside the project instead of after it.
 * @throws 404 `Project not found.`; 404 `no_published_version` when no version was published;
 * 401 anonymous on a form not open to the public.
 */
export async function getCurrentFormVersion(ctx: CollectionContext, actor: Actor, projectId: number) {
  const { project } = await requireAccess(ctx, { actor, permission: 'project.open', projectId: projectId });
  const version =
    project.current_version_id === null ? undefined : await findVersion(ctx.db, project.current_version_id);
  if (!version) throw problems.noCurrentVersion();
  return withFields(ctx, version);
}

/** One page of a version's fields in form order, and their number. @throws 404. */
export async function listVersionFields(
  ctx: CollectionContext,
  actor: Actor,
  command: { versionId: number; page: BodyReader<PageRequest> },
): Promise<{ items: FieldView[]; total: number }> {
  const { version } = await requireAccess(ctx, {
    actor,
    permission: 'project.open',
    versionId: command.versionId,
  });
  const all = await listFields(ctx.db, version.id);
  const { page, per_page } = command.page();
  return { items: all.slice((page - 1) * per_page, page * per_page).map(fieldJson), total: all.length };
}

/**
 * The field as stored from a normalised body ({@link normaliseTexts}), checked: its texts'
 * languages, choices and constraints for the type, its default.
 * @throws 422 `validation_failed` keyed by property.
 */
function checkedShape(
  body: Partial<FieldBody>,
  version: VersionRow,
  current?: FieldRow,
): Partial<FieldInput> {
  const { field, errors } = normaliseTexts(body, version, current);
  const merged = { ...current, ...field } as FieldInput;
  Object.assign(errors, fieldShapeErrors({ ...merged, logic: merged.logic ?? {} }));
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  return field as Partial<FieldInput>;
}

/**
 * Adds a field to a draft version (`form.edit`); choices and constraints must fit the type, and
 * its expressions compile against the version's fields (form model of issue 34: a syntax error,
 * an unknown `${name}` or function, a cycle: 422 `expression_invalid` keyed by the property,
 * naming the position; a parent that is not a group or repeat: 422 on `parent`).
 * @throws 409 `version_frozen` on a published version, 422 on a bad shape or a duplicate name
 * (`duplicate_name`); 404, 403 access.
 */
export async function addField(
  ctx: CollectionContext,
  actor: Actor,
  command: { versionId: number; field: BodyReader<FieldBody> },
): Promise<FieldView> {
  const { version } = await requireAccess(ctx, {
    actor,
    permission: 'form.edit',
    versionId: command.versionId,
  });
  assertDraft(version);
  const field = checkedShape(command.field(), version) as FieldInput;
  const input = { ...field, choices: field.choices?.length ? field.choices : null };
  const existing = await listFields(ctx.db, version.id);
  if (existing.some((f) => f.name === input.name)) throw problems.duplicateName();
  assertFieldCompiles(
    version,
    [
      ...existing,
      {
        ...input,
        id: 0,
        uuid: '',
        parent: input.parent ?? null,
        logic: input.logic ?? {},
        translations: input.translations ?? {},
      },
    ],
    input.name,
  );
  return fieldJson(await uniqueName(() => insertField(ctx.db, version.id, input)));
}

/**
 * Changes a field of a draft version (partial; its uuid stays); changing to a non-select type
 * drops its choices. Its expressions compile against the version's fields, as in {@link addField}.
 * @throws 404 `Field not found.`, 409 `version_frozen`, 422 bad shape, `duplicate_name` or
 *   `expression_invalid`.
 */
export async function changeField(
  ctx: CollectionContext,
  actor: Actor,
  command: { versionId: number; fieldId: number; patch: BodyReader<Partial<FieldBody>> },
): Promise<FieldView> {
  const { version } = await requireAccess(ctx, {
    actor,
    permission: 'form.edit',
    versionId: command.versionId,
  });
  const field = await findField(ctx.db, version.id, command.fieldId);
  if (!field) throw problems.notFound({ resource: 'field' });
  assertDraft(version);
  const patch = checkedShape(command.patch(), version, field);
  if (patch.type && !SELECT_TYPES.includes(patch.type)) patch.choices = null;
  const all = await listFields(ctx.db, version.id);
  const name = patch.name ?? field.name;
  if (all.some((f) => f.name === name && f.id !== field.id)) throw problems.duplicateName();
  assertFieldCompiles(
    version,
    all.map((f) => (f.id === field.id ? { ...f, ...patch } : f)),
    name,
  );
  return fieldJson(await uniqueName(() => updateField(ctx.db, field.id, patch)));
}

/**
 * Sets the languages of a draft version (`PUT /versions/{id}`; form model of issue 34):
 * `default_language` one of `languages` (the first when absent); an empty list makes it a
 * one-language form.
 * @throws 409 `version_frozen` on a published version; 422 `default_language`; 404, 403 access.
 */
export async function changeVersionLanguages(
  ctx: CollectionContext,
  actor: Actor,
  command: { versionId: number; input: BodyReader<VersionLanguagesInput> },
): Promise<VersionView> {
  const { version } = await requireAccess(ctx, {
    actor,
    permission: 'form.edit',
    versionId: command.versionId,
  });
  assertDraft(version);
  const languages = languagesOf(command.input()) ?? { languages: [], default_language: null };
  const row = await ctx.inTransaction((tx) => updateVersionLanguages(tx, version.id, languages));
  return versionJson(row, await countFields(ctx.db, version.id));
}

/** Deletes a field of a draft version. @throws 404 `Field not found.`, 409 `version_frozen`. */
export async function removeField(
  ctx: CollectionContext,
  actor: Actor,
  command: { versionId: number; fieldId: number },
): Promise<void> {
  const { version } = await requireAccess(ctx, {
    actor,
    permission: 'form.edit',
    versionId: command.versionId,
  });
  const field = await findField(ctx.db, version.id, command.fieldId);
  if (!field) throw problems.notFound({ resource: 'field' });
  assertDraft(version);
  await deleteField(ctx.db, field.id);
}

/**
 * Publishes (freezes) a draft and makes it the project's current version, the one collectors get.
 * @throws 409 `version_published` when already published, 422 without fields; 404, 403 access.
 */
export async function publishFormVersion(
  ctx: CollectionContext,
  actor: Actor,
  versionId: number,
): Promise<VersionView> {
  const { version } = await requireAccess(ctx, { actor, permission: 'form.edit', versionId: versionId });
  if (version.status !== 'draft') throw problems.versionPublished({ number: version.number });
  const fields = await listFields(ctx.db, version.id);
  const n = fields.length;
  if (!n)
    throw problems.validationFailed({
      errors: { fields: ['A version needs at least one field to be published.'] },
    });
  // The whole form compiles: references to fields deleted or renamed since, cycles (issue 34).
  const compiled = compileFields(version, fields);
  if (!compiled.ok) throw formProblem(compiled.errors, (e) => `fields.${e.field || 'version'}.${e.property}`);
  return versionJson(await ctx.inTransaction((tx) => publishVersion(tx, version)), n);
}
