import { addFieldError, validationFailed, type FieldErrors } from './problem.ts';

/**
 * Why `s` cannot be stored as text, or undefined when it can. PostgreSQL refuses the NUL
 * character in `text` and `jsonb` (and `\u0000` in JSON), and an unpaired UTF-16 surrogate
 * (`\ud800` alone) is not Unicode: `jsonb` refuses it and `text` would silently store U+FFFD.
 */
function unstorableReason(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (!s.isWellFormed()) return 'must be well-formed Unicode (it contains an unpaired surrogate)';
  return undefined;
}

/**
 * Every string in `value` (object keys included) that cannot be stored as text, as Laravel's
 * `errors` map keyed by dotted path (`sections.0.title`), prefixed with `root` when given
 * (`query.search`). Walks iteratively, so a deeply nested body cannot overflow the stack.
 * At most `limit` fields are reported.
 */
export function unstorableTextErrors(value: unknown, root = '', limit = 10): FieldErrors {
  const errors: FieldErrors = {};
  let found = 0;
  const stack: Array<[unknown, string]> = [[value, root]];
  const report = (path: string, what: string, reason: string) => {
    addFieldError(errors, path || '_', `The ${path || 'request'} ${what} ${reason}.`);
    found++;
  };
  while (stack.length && found < limit) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = unstorableReason(v);
      if (reason) report(path, 'field', reason);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const keyReason = unstorableReason(k);
        if (keyReason) {
          report(path, 'field name', keyReason);
          continue;
        }
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return errors;
}

/**
 * Throws when `value` holds a string that cannot be stored as text (see {@link unstorableReason}).
 *
 * @throws ProblemError 422 (`validation_failed`) naming each bad field (dotted path under `root`).
 */
export function assertStorableText(value: unknown, root = ''): void {
  const errors = unstorableTextErrors(value, root);
  if (Object.keys(errors).length) throw validationFailed(errors);
}
