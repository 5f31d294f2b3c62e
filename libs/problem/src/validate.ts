import type Joi from 'joi';
import { addFieldError, validationFailed, type FieldErrors } from './problem.ts';

/** Converts joi's details into Laravel's `errors` map keyed by dotted path (`sections.0.title`). */
export function joiErrors(error: Joi.ValidationError): FieldErrors {
  const errors: FieldErrors = {};
  for (const d of error.details) {
    const key = d.path.length ? d.path.join('.') : '_';
    addFieldError(errors, key, d.message.replace(/"/g, ''));
  }
  return errors;
}

/**
 * Validates `value` with a joi schema and returns the converted value.
 *
 * @throws ProblemError 422 (`validation_failed`) listing every bad field.
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, options: Joi.ValidationOptions = {}): T {
  const result = schema.validate(value ?? {}, { abortEarly: false, stripUnknown: true, ...options });
  if (result.error) throw validationFailed(joiErrors(result.error));
  return result.value;
}
