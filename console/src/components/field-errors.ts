import { useEffect } from 'react';
import { ApiError } from '../api/problem.ts';

/**
 * The `errors` of a 422 problem as form errors (field → first message), for Mantine's
 * `form.setErrors`: the service stays the authority and its message shows under the field,
 * while what the user typed is kept.
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !err.problem.errors) return {};
  return Object.fromEntries(
    Object.entries(err.problem.errors).map(([field, messages]) => [field, messages[0] ?? '']),
  );
}

/**
 * Puts a refused request's 422 `errors` under the form's fields whenever a new refusal comes
 * (`form` is a Mantine form, or anything with its `setErrors`).
 */
export function useServiceErrors(
  form: { setErrors: (errors: Record<string, string>) => void },
  error: unknown,
) {
  const { setErrors } = form;
  useEffect(() => {
    if (error) setErrors(fieldErrorsOf(error));
  }, [error, setErrors]);
}
