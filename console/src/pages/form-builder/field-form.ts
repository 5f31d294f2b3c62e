import type { Field, FieldType } from '../collection/types.ts';
import type { FieldInput } from './use-form-builder.ts';

/** The form model's own types (issue 34): containers, display-only notes, hidden calculations. */
export const MODEL_TYPES: readonly FieldType[] = ['group', 'repeat', 'note', 'calculate'];
export type ModelType = FieldType;

/** The `appearance` values the service accepts (docs/collection.md), by the types they apply to. */
export const APPEARANCES: Readonly<Record<string, readonly NonNullable<Field['appearance']>[]>> = {
  select_one: ['minimal', 'horizontal', 'likert'],
  select_multiple: ['minimal', 'horizontal', 'likert'],
  text: ['multiline', 'numbers'],
  group: ['field-list'],
};

/** A field as the API answers it, with the form model's properties (parent, logic, translations). */
export type ModelField = Field;

/** Texts of one other language in the editor. */
interface LanguageTexts {
  label: string;
  hint: string;
  constraint_message: string;
  required_message: string;
}

/** The field editor's values: numbers as typed text, so an empty box means "no limit". */
export interface FieldFormValues {
  name: string;
  label: string;
  type: ModelType;
  parent: string;
  required: boolean;
  min: string;
  max: string;
  max_length: string;
  pattern: string;
  choices: Array<{ value: string; label: string; properties: string; translations: Record<string, string> }>;
  hint: string;
  relevant: string;
  constraint: string;
  constraint_message: string;
  required_if: string;
  required_message: string;
  calculation: string;
  default: string;
  read_only: boolean;
  choice_filter: string;
  appearance: NonNullable<Field['appearance']> | '';
  repeat_count: string;
  min_repeats: string;
  max_repeats: string;
  translations: Record<string, LanguageTexts>;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
export const isSelect = (type: ModelType) => type === 'select_one' || type === 'select_multiple';
export const isNumber = (type: ModelType) => type === 'integer' || type === 'decimal';
export const isContainer = (type: ModelType) => type === 'group' || type === 'repeat';
/** Types a collector answers (constraint, required, default, read-only apply). */
export const isAnswered = (type: ModelType) => !isContainer(type) && type !== 'note' && type !== 'calculate';

/** `a=1; b=2` ⇄ `{a: '1', b: '2'}`: a choice's properties for `choice_filter`, as one line. */
const propertiesText = (p: Readonly<Record<string, string>> | null | undefined) =>
  Object.entries(p ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
function parseProperties(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of text.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return Object.keys(out).length ? out : null;
}

/** The editor's values for a new field (in `parent` when given), or for an existing one. */
export function fieldFormValues(
  field: ModelField | undefined,
  languages: readonly string[],
  parent?: string,
): FieldFormValues {
  const c = field?.constraints ?? {};
  const text = (n: number | string | null | undefined) => (n === undefined || n === null ? '' : String(n));
  const tr = field?.translations ?? {};
  return {
    name: field?.name ?? '',
    label: field?.label ?? '',
    type: field?.type ?? 'text',
    parent: (field ? field.parent : parent) ?? '',
    required: field?.required ?? false,
    min: text(c.min),
    max: text(c.max),
    max_length: text(c.max_length),
    pattern: c.pattern ?? '',
    choices: (
      field?.choices ?? [
        { value: '', label: '' },
        { value: '', label: '' },
      ]
    ).map((ch) => ({
      value: ch.value,
      label: ch.label,
      properties: propertiesText(ch.properties),
      translations: Object.fromEntries(languages.map((l) => [l, ch.translations?.[l]?.label ?? ''])),
    })),
    hint: field?.hint ?? '',
    relevant: field?.relevant ?? '',
    constraint: field?.constraint ?? '',
    constraint_message: field?.constraint_message ?? '',
    required_if: field?.required_if ?? '',
    required_message: field?.required_message ?? '',
    calculation: field?.calculation ?? '',
    default: text(field?.default as string | number | null | undefined),
    read_only: field?.read_only ?? false,
    choice_filter: field?.choice_filter ?? '',
    appearance: field?.appearance ?? '',
    repeat_count: text(field?.repeat_count as number | string | null | undefined),
    min_repeats: text(field?.min_repeats),
    max_repeats: text(field?.max_repeats),
    translations: Object.fromEntries(
      languages.map((l) => [
        l,
        {
          label: tr[l]?.label ?? '',
          hint: tr[l]?.hint ?? '',
          constraint_message: tr[l]?.constraint_message ?? '',
          required_message: tr[l]?.required_message ?? '',
        },
      ]),
    ),
  };
}

const wholeNumber = (s: string) => s === '' || (Number.isInteger(Number(s)) && Number(s) >= 0);

/**
 * The service's rules for a field (docs/collection.md, "Form versions and fields"), checked
 * before sending: a name of letters, digits and `_` not starting with a digit, a label, choices
 * with distinct values for the select types, min <= max, a pattern that compiles, a calculation
 * for `calculate`, whole repeat bounds with min <= max. Keys are the editor's (and the
 * service's 422) field paths. Expressions are checked as they are typed (ExpressionInput).
 */
export function fieldFormErrors(v: FieldFormValues, t: (key: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!NAME_PATTERN.test(v.name)) errors.name = t('errors.name');
  if (!v.label.trim() && v.type !== 'calculate') errors.label = t('errors.label');
  if (isNumber(v.type)) {
    const min = v.min === '' ? undefined : Number(v.min);
    const max = v.max === '' ? undefined : Number(v.max);
    if (min !== undefined && !Number.isFinite(min)) errors['constraints.min'] = t('errors.number');
    if (max !== undefined && !Number.isFinite(max)) errors['constraints.max'] = t('errors.number');
    if (min !== undefined && max !== undefined && min > max) errors['constraints.min'] = t('errors.minMax');
  }
  if (v.type === 'text') {
    if (v.max_length !== '' && !(Number.isInteger(Number(v.max_length)) && Number(v.max_length) >= 1))
      errors['constraints.max_length'] = t('errors.maxLength');
    if (v.pattern) {
      try {
        new RegExp(v.pattern, 'u');
      } catch {
        errors['constraints.pattern'] = t('errors.pattern');
      }
    }
  }
  if (isSelect(v.type)) {
    const seen = new Set<string>();
    v.choices.forEach((c, i) => {
      if (!c.value.trim()) errors[`choices.${i}.value`] = t('errors.choiceValue');
      else if (seen.has(c.value.trim())) errors[`choices.${i}.value`] = t('errors.choiceDuplicate');
      seen.add(c.value.trim());
      if (!c.label.trim()) errors[`choices.${i}.label`] = t('errors.choiceLabel');
    });
    if (v.choices.length === 0) errors.choices = t('errors.choices');
  }
  if (v.type === 'calculate' && !v.calculation.trim()) errors.calculation = t('errors.calculation');
  if (v.type === 'repeat') {
    if (!wholeNumber(v.min_repeats)) errors.min_repeats = t('errors.wholeNumber');
    if (!wholeNumber(v.max_repeats)) errors.max_repeats = t('errors.wholeNumber');
    if (v.min_repeats !== '' && v.max_repeats !== '' && Number(v.min_repeats) > Number(v.max_repeats))
      errors.min_repeats = t('errors.minMax');
  }
  if (v.required && v.required_if.trim()) errors.required_if = t('errors.requiredBoth');
  return errors;
}

/** A text as the API takes it: a plain string, or `{lang: text}` (form-model.md). */
type Text = FieldInput['label'];

/** A text in every language: a plain string for a one-language form, else `{lang: text}` (blank ones left out). */
function perLanguage(
  own: string,
  v: FieldFormValues,
  key: keyof LanguageTexts,
  defaultLanguage: string | null,
): Text | null {
  const others = Object.entries(v.translations).filter(([, x]) => x[key].trim());
  if (!own.trim() && others.length === 0) return null;
  if (!defaultLanguage || others.length === 0) return own.trim();
  const texts: Record<string, string> = {
    ...(own.trim() ? { [defaultLanguage]: own.trim() } : {}),
    ...Object.fromEntries(others.map(([l, x]) => [l, x[key].trim()])),
  };
  return texts;
}

/**
 * The request body for the editor's values: constraints, choices and logic only where the type
 * takes them; texts per language (`{"en": ..., "fr": ...}`) when the version has languages.
 * Blank optional properties are sent as null so clearing a box clears the property.
 */
export function fieldInputOf(v: FieldFormValues, defaultLanguage: string | null): FieldInput {
  const constraints: FieldInput['constraints'] = {};
  if (isNumber(v.type)) {
    if (v.min !== '') constraints.min = Number(v.min);
    if (v.max !== '') constraints.max = Number(v.max);
  }
  if (v.type === 'text') {
    if (v.max_length !== '') constraints.max_length = Number(v.max_length);
    if (v.pattern) constraints.pattern = v.pattern;
  }
  const orNull = (s: string) => (s.trim() ? s.trim() : null);
  const int = (s: string) => (s === '' ? null : Number(s));
  const answered = isAnswered(v.type);
  const body: FieldInput = {
    name: v.name,
    label: perLanguage(v.label, v, 'label', defaultLanguage) ?? '',
    type: v.type,
    parent: v.parent || null,
    required: answered ? v.required : false,
    constraints,
    choices: isSelect(v.type)
      ? v.choices.map((c) => {
          const tr = Object.entries(c.translations).filter(([, x]) => x.trim());
          return {
            value: c.value.trim(),
            label:
              defaultLanguage && tr.length
                ? {
                    [defaultLanguage]: c.label.trim(),
                    ...Object.fromEntries(tr.map(([l, x]) => [l, x.trim()])),
                  }
                : c.label.trim(),
            ...(parseProperties(c.properties) ? { properties: parseProperties(c.properties)! } : {}),
          };
        })
      : null,
    hint: perLanguage(v.hint, v, 'hint', defaultLanguage),
    relevant: orNull(v.relevant),
    constraint: answered ? orNull(v.constraint) : null,
    constraint_message: answered
      ? perLanguage(v.constraint_message, v, 'constraint_message', defaultLanguage)
      : null,
    required_if: answered && !v.required ? orNull(v.required_if) : null,
    required_message: answered
      ? perLanguage(v.required_message, v, 'required_message', defaultLanguage)
      : null,
    calculation: v.type === 'calculate' ? orNull(v.calculation) : null,
    default: !answered || !v.default.trim() ? null : isNumber(v.type) ? Number(v.default) : v.default.trim(),
    read_only: answered ? v.read_only : false,
    choice_filter: isSelect(v.type) ? orNull(v.choice_filter) : null,
    appearance: v.appearance || null,
    repeat_count:
      v.type === 'repeat' && v.repeat_count.trim()
        ? /^\d+$/.test(v.repeat_count.trim())
          ? Number(v.repeat_count.trim())
          : v.repeat_count.trim()
        : null,
    min_repeats: v.type === 'repeat' && !v.repeat_count.trim() ? int(v.min_repeats) : null,
    max_repeats: v.type === 'repeat' && !v.repeat_count.trim() ? int(v.max_repeats) : null,
  };
  return body;
}
