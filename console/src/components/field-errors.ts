import { useEffect } from 'react';
import { ApiError } from '../api/problem.ts';
import i18n from 'i18next';
import { problemMessage, PROBLEMS_NS, translateField } from '../api/problem-message.ts';

/**
 * The `errors` of a 422 problem as form errors (field → first message), for Mantine's
 * `form.setErrors`: the service stays the authority and its message shows under the field, in
 * the user's language (the message of the problem's own `code` when it has one, such as
 * `email_taken`; else the service's usual sentences translated, see `fieldMessage`), while what
 * the user typed is kept.
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !err.problem.errors) return {};
  const code = err.problem.code;
  const own = code && code !== 'validation_failed' && i18n.exists(`${PROBLEMS_NS}:${code}`);
  return Object.fromEntries(
    Object.entries(err.problem.errors).map(([field, messages]) => [
      field,
      own ? problemMessage(err) : (translateField?.(messages[0] ?? '') ?? messages[0] ?? ''),
    ]),
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
