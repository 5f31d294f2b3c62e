import type { FormChoice, FormNode, FormNodeTexts } from './logic-types.ts';

/**
 * A node's text in `lang` (its translation), else the default language's text (form-model.md:
 * "Missing translations fall back to the default language").
 */
export function textIn(node: FormNode, key: keyof FormNodeTexts, lang: string | null): string {
  const own = lang ? node.translations?.[lang]?.[key] : undefined;
  return own || (node[key] as string | null | undefined) || '';
}

/** A choice's label in `lang`, else its default-language label. */
export const choiceLabel = (choice: FormChoice, lang: string | null): string =>
  (lang && choice.translations?.[lang]?.label) || choice.label;

/**
 * The language a form opens in: the console's language when the version has it (`fr-CA` matches
 * `fr`), else the version's default, else null (a one-language form).
 */
export function startLanguage(
  languages: readonly string[] | null | undefined,
  defaultLanguage: string | null | undefined,
  consoleLanguage: string,
): string | null {
  if (!languages?.length) return null;
  const base = consoleLanguage.split('-')[0]!;
  return (
    languages.find((l) => l === consoleLanguage) ??
    languages.find((l) => l.split('-')[0] === base) ??
    defaultLanguage ??
    languages[0]!
  );
}

/** The value at a session path (`member.2.age`) of an answers tree. */
export function valueAt(answers: unknown, path: string): unknown {
  let at: unknown = answers;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}
