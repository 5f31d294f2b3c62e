import { FORMULA_TRIGGERS, PLAIN_NUMBER } from './types.ts';
/**
 * Spreadsheet formula neutralisation of export cells (OWASP "CSV Injection"; docs/collection.md,
 * "Exports", "Formulas"). A text cell whose first character a spreadsheet reads as the start of
 * a formula gets a leading `'`, which spreadsheets take as "this is text" — unless the whole cell
 * is a plain decimal number (`-5`, `+3.25`, `1e3`), which no spreadsheet runs as anything but a
 * number. The SQL form of the same rule (CSV is written by PostgreSQL's COPY) is in
 * `data/export-query.ts`, built from the two constants below.
 */

const triggers = new Set<string>(FORMULA_TRIGGERS);
const plainNumber = new RegExp(PLAIN_NUMBER);

/**
 * `text` as a spreadsheet must show it: with a leading `'` when it starts with one of
 * {@link FORMULA_TRIGGERS} and is not a plain number; otherwise unchanged.
 */
export function neutraliseFormula(text: string): string {
  return text !== '' && triggers.has(text[0]!) && !plainNumber.test(text) ? `'${text}` : text;
}
