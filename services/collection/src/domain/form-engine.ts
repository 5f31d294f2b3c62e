/**
 * The collection service's adapter to the form engine of `@fieldhouse/form-logic` (issue 34;
 * docs/collection.md, "Logic"): a version's fields as the engine's form definition, the form's
 * problems as field errors, and the compiled form of a published version kept once per process.
 */
import {
  compileForm,
  formTree,
  type CompiledForm,
  type FormDefinition,
  type FormError,
  type FlatField,
} from '@fieldhouse/form-logic';
import type { FieldErrors } from '@fieldhouse/problem';
import type { FieldDef } from './types.ts';
import type { VersionLanguages } from './field-definition.ts';
import { problems } from './problems.ts';

/** The FormError codes of an expression (the others are a field's shape: parent, names...). */
const EXPRESSION_CODES: ReadonlySet<FormError['code']> = new Set([
  'syntax',
  'unknown_reference',
  'unknown_function',
  'arity',
  'argument',
  'unsupported',
  'cycle',
]);

/** A field as the engine's flat list has it (form-types.ts `FlatField`). */
function flatField(f: FieldDef & { position?: number }): FlatField {
  return {
    name: f.name,
    type: f.type,
    uuid: f.uuid,
    label: f.label,
    required: f.required,
    choices: f.choices,
    parent: f.parent ?? null,
    position: f.position ?? null,
    translations: f.translations ?? {},
    ...(f.logic ?? {}),
  } as FlatField;
}

/** Whether a version needs the engine: a container, note or calculation, or any expression. */
function hasLogic(fields: readonly FieldDef[]): boolean {
  return fields.some(
    (f) =>
      f.parent != null ||
      f.type === 'group' ||
      f.type === 'repeat' ||
      f.type === 'note' ||
      f.type === 'calculate' ||
      [
        'relevant',
        'constraint',
        'required_if',
        'calculation',
        'choice_filter',
        'repeat_count',
        'min_repeats',
        'max_repeats',
      ].some((k) => f.logic?.[k as keyof FieldDef['logic']] != null),
  );
}

/**
 * Compiles a version's fields (in form order) with the engine: the tree from `parent`, then
 * every expression, duplicate names, calculation cycles and misplaced properties.
 * @returns the compiled form, or the engine's errors (each naming field, property, position).
 */
export function compileFields(
  version: VersionLanguages,
  fields: readonly (FieldDef & { position?: number })[],
): { ok: true; form: CompiledForm } | { ok: false; errors: FormError[] } {
  const tree = formTree(fields.map(flatField));
  if (!tree.ok) return tree;
  const definition: FormDefinition = {
    languages: version.languages,
    default_language: version.default_language,
    nodes: tree.nodes,
  };
  return compileForm(definition);
}

/**
 * The 422 of a form's errors: `expression_invalid` when every error is an expression's (syntax,
 * unknown reference or function, arity, cycle), else `validation_failed`.
 * @param key the errors' key of each FormError (its property on a field's save,
 *   `fields.<name>.<property>` on publishing).
 */
export function formProblem(errors: readonly FormError[], key: (e: FormError) => string): Error {
  const fieldErrors: FieldErrors = {};
  for (const e of errors) (fieldErrors[key(e)] ??= []).push(e.message);
  return errors.every((e) => EXPRESSION_CODES.has(e.code))
    ? problems.expressionInvalid({ errors: fieldErrors })
    : problems.validationFailed({ errors: fieldErrors });
}

/**
 * Throws the 422 of a field's save when the version's form, with the field as saved, has errors
 * on it (form model of issue 34: compiled when saved; an unknown `${name}` included), keyed by
 * the property (`relevant`, `calculation`, `parent`...): a cycle it closes with other fields
 * counts as its own.
 * @throws ProblemError 422 `expression_invalid` or `validation_failed`.
 */
export function assertFieldCompiles(
  version: VersionLanguages,
  fields: readonly (FieldDef & { position?: number })[],
  name: string,
): void {
  const result = compileFields(version, fields);
  if (result.ok) return;
  const own = result.errors.filter((e) => e.field === name || e.code === 'cycle');
  if (own.length)
    throw formProblem(own, (e) => (e.field === name || !e.field ? e.property : `${e.field}.${e.property}`));
}

/**
 * The compiled form of a version, or null when it has no logic (a flat form without expressions:
 * checked exactly as before issue 34). Callers keep it per published version
 * (domain/submission-entries.ts): a published version never changes.
 * @throws ProblemError 422 when the stored form does not compile (it did when published).
 */
export function formOfVersion(
  version: VersionLanguages,
  fields: readonly (FieldDef & { position?: number })[],
): CompiledForm | null {
  if (!hasLogic(fields)) return null;
  const result = compileFields(version, fields);
  if (!result.ok) throw formProblem(result.errors, (e) => `form.${e.field}.${e.property}`);
  return result.form;
}
