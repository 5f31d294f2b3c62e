import i18n from 'i18next';

/**
 * The service's usual English sentences about one field (joi's and the services' own, see
 * docs/console.md, "Errors") and the key of their translation under `common:errors.field`; the
 * number they name (a length, a bound) is passed as `{{n}}`.
 */
const RULES: [RegExp, string][] = [
  [/is required|is not allowed to be empty/, 'required'],
  [/must be a valid email/, 'email'],
  [/length must be less than or equal to (\d+)|must be at most (\d+) characters/, 'tooLong'],
  [/length must be at least (\d+)/, 'tooShort'],
  [/must be (?:greater than or equal to|at least) (-?[\d.]+)$/, 'min'],
  [/must be (?:less than or equal to|at most) (-?[\d.]+)$/, 'max'],
  [/must be an integer/, 'integer'],
  [/must be a number/, 'number'],
  [/must be one of|not choices of|names a choice more than once/, 'choice'],
  [/must be a (?:valid )?date|ISO 8601/, 'date'],
  [/NUL character|well-formed Unicode/, 'unstorable'],
  [/already been taken|already invited/, 'taken'],
  [/has votes and cannot be removed/, 'hasVotes'],
  [/pattern/, 'pattern'],
];

/**
 * One field's message from a 422 `errors` in the user's language when it is one of the
 * service's usual sentences, else the service's own sentence (what the console cannot know).
 */
export function fieldMessage(message: string): string {
  for (const [rule, key] of RULES) {
    const m = rule.exec(message);
    if (m) return i18n.t(`common:errors.field.${key}`, { n: m.slice(1).find((g) => g !== undefined) });
  }
  return message;
}
