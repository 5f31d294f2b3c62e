import type { Field, FieldType } from '../collection/types.ts';
import type { FieldInput } from './use-form-builder.ts';

/** The field editor's values: numbers as typed text, so an empty box means "no limit". */
export interface FieldFormValues {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  min: string;
  max: string;
  max_length: string;
  pattern: string;
  choices: Array<{ value: string; label: string }>;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
export const isSelect = (type: FieldType) => type === 'select_one' || type === 'select_multiple';
export const isNumber = (type: FieldType) => type === 'integer' || type === 'decimal';

/** The editor's values for a new field, or for an existing one. */
export function fieldFormValues(field?: Field): FieldFormValues {
  const c = field?.constraints ?? {};
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
  return {
    name: field?.name ?? '',
    label: field?.label ?? '',
    type: field?.type ?? 'text',
    required: field?.required ?? false,
    min: text(c.min),
    max: text(c.max),
    max_length: text(c.max_length),
    pattern: c.pattern ?? '',
    choices: field?.choices ?? [
      { value: '', label: '' },
      { value: '', label: '' },
    ],
  };
}

/**
 * The service's rules for a field (docs/collection.md, "Form versions and fields"), checked
 * before sending: a name of letters, digits and `_` not starting with a digit, a label, choices
 * with distinct values for the select types, min <= max, a pattern that compiles. Keys are the
 * editor's (and the service's 422) field paths.
 */
export function fieldFormErrors(v: FieldFormValues, t: (key: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!NAME_PATTERN.test(v.name)) errors.name = t('errors.name');
  if (!v.label.trim()) errors.label = t('errors.label');
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
  return errors;
}

/** The request body for the editor's values: constraints and choices only where the type takes them. */
export function fieldInputOf(v: FieldFormValues): FieldInput {
  const constraints: FieldInput['constraints'] = {};
  if (isNumber(v.type)) {
    if (v.min !== '') constraints.min = Number(v.min);
    if (v.max !== '') constraints.max = Number(v.max);
  }
  if (v.type === 'text') {
    if (v.max_length !== '') constraints.max_length = Number(v.max_length);
    if (v.pattern) constraints.pattern = v.pattern;
  }
  return {
    name: v.name,
    label: v.label.trim(),
    type: v.type,
    required: v.required,
    constraints,
    choices: isSelect(v.type)
      ? v.choices.map((c) => ({ value: c.value.trim(), label: c.label.trim() }))
      : null,
  };
}
