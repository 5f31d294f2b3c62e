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
