import Joi from 'joi';
import type { FieldErrors } from '@fieldhouse/problem';
import {
  FIELD_TYPES,
  NUMBER_TYPES,
  SELECT_TYPES,
  compilePattern,
  type Choice,
  type Constraints,
  type FieldType,
} from './fields.ts';

const choice = Joi.object<Choice>({
  value: Joi.string().trim().min(1).max(200).required(),
  label: Joi.string().trim().min(1).max(500).required(),
});

const constraints = Joi.object<Constraints>({
  min: Joi.number(),
  max: Joi.number(),
  max_length: Joi.number().integer().min(1).max(100_000),
  pattern: Joi.string().min(1).max(500),
});

/** Body of `POST /versions/{id}/fields` (design.md: `{name, label, type, required?, choices?}` + constraints). */
export const fieldCreateSchema = Joi.object({
  name: Joi.string()
    .pattern(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'a name (letters, digits, _; not starting with a digit)')
    .required(),
  label: Joi.string().trim().min(1).max(500).required(),
  type: Joi.string()
    .valid(...FIELD_TYPES)
    .required(),
  required: Joi.boolean().default(false),
  choices: Joi.array().items(choice).min(1).max(1000).unique('value').allow(null),
  constraints: constraints.default({}),
  position: Joi.number().integer().min(0).max(100_000),
});

/** Body of `PUT /versions/{id}/fields/{field_id}`: the same keys, all optional. */
export const fieldUpdateSchema = fieldCreateSchema
  .fork(['name', 'label', 'type'], (s) => s.optional())
  .keys({
    required: Joi.boolean(),
    constraints,
  });

export interface FieldShape {
  type: FieldType;
  choices?: Choice[] | null;
  constraints: Constraints;
}

/**
 * Checks that choices and constraints fit the type: choices for (and only for) select types;
 * `min`/`max` only for integer and decimal (min <= max); `max_length`/`pattern` only for text,
 * with a pattern that compiles.
 */
export function fieldShapeErrors(f: FieldShape): FieldErrors {
  const errors: FieldErrors = {};
  const isSelect = SELECT_TYPES.includes(f.type);
  if (isSelect && !f.choices?.length) errors.choices = [`choices are required for type ${f.type}`];
  if (!isSelect && f.choices?.length)
    errors.choices = [`choices are only allowed for select_one and select_multiple`];
  const c = f.constraints;
  if ((c.min !== undefined || c.max !== undefined) && !NUMBER_TYPES.includes(f.type))
    errors.constraints = ['min and max are only allowed for integer and decimal fields'];
  if (c.min !== undefined && c.max !== undefined && c.min > c.max)
    (errors['constraints.min'] ??= []).push('min must not exceed max');
  if ((c.max_length !== undefined || c.pattern !== undefined) && f.type !== 'text')
    (errors.constraints ??= []).push('max_length and pattern are only allowed for text fields');
  if (c.pattern !== undefined) {
    try {
      compilePattern(c.pattern);
    } catch {
      (errors['constraints.pattern'] ??= []).push('pattern is not a valid regular expression');
    }
  }
  return errors;
}
