/**
 * Messages of validate(): the form's own (`constraint_message`, `required_message`) in the
 * requested language, falling back to the default language's text, then to English defaults.
 */
import type { FormNode } from './form-types.ts';

/** English defaults (ODK's "Value not allowed" for a failed constraint without a message). */
export const MESSAGES = {
  constraint: 'Value not allowed',
  required: 'This answer is required',
  notRelevant: 'not relevant: this question does not apply to the answers given, so it must not be answered',
  choice: 'Value not allowed: this choice is not offered for the answers given',
  repeatCount: (count: number, given: number) =>
    `${count} instance${count === 1 ? '' : 's'} expected (repeat_count), not ${given}`,
  repeatMin: (min: number, given: number) =>
    `at least ${min} instance${min === 1 ? '' : 's'} needed, not ${given}`,
  repeatMax: (max: number, given: number) =>
    `at most ${max} instance${max === 1 ? '' : 's'} allowed, not ${given}`,
} as const;

/**
 * The node's text for `key` in `language` (its `translations`; `fr-CA` falls back to `fr`), else
 * the default language's (the property itself), else undefined.
 */
export function textIn(
  node: FormNode,
  key: 'label' | 'hint' | 'constraint_message' | 'required_message',
  language: string | null | undefined,
): string | undefined {
  if (language) {
    const translated =
      node.translations?.[language]?.[key] ?? node.translations?.[language.split('-')[0]!]?.[key];
    if (translated) return translated;
  }
  const own = node[key];
  return typeof own === 'string' && own !== '' ? own : undefined;
}
