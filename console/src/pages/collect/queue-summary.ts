import type { Field } from '../collection/types.ts';
import { isEmpty, type Answers } from './answers.ts';

/** Field types whose answers tell queued submissions apart at a glance. */
const TELLING = new Set<Field['type']>(['text', 'select_one', 'select_multiple']);

/** A choice answer by its labels (a value the field no longer offers stays as it is). */
const choiceText = (field: Field, values: string[]) =>
  values.map((v) => field.choices?.find((c) => c.value === v)?.label ?? v).join(', ');

/**
 * The first `count` non-empty text or choice answers of a queued submission, in the form's
 * order, as `{label, text}` (choices by their labels; long texts cut at 60 characters), so a
 * collector can tell queued items apart. Fields not in `fields` (another version) are skipped.
 */
export function firstAnswers(
  fields: readonly Field[],
  answers: Answers,
  count = 2,
): Array<{ label: string; text: string }> {
  const found: Array<{ label: string; text: string }> = [];
  for (const field of fields) {
    if (found.length >= count) break;
    // Forms with logic keep drafts by path: a top-level field's is its name.
    const answer = answers[field.uuid] ?? answers[field.name];
    if (!TELLING.has(field.type) || isEmpty(answer)) continue;
    const text =
      field.type === 'text'
        ? String(answer).trim()
        : choiceText(field, Array.isArray(answer) ? answer : [String(answer)]);
    found.push({ label: field.label, text: text.length > 60 ? `${text.slice(0, 59)}…` : text });
  }
  return found;
}
