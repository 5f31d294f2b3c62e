import { parse } from 'csv-parse/sync';

/** One data row of an invite CSV: its line number (the header is line 1) and its cells by column. */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/** The CSV is not usable as a whole (no header, missing columns, broken quoting). */
export class CsvFileError extends Error {
  override name = 'CsvFileError';
}

/** Most data rows accepted in one import. */
const MAX_IMPORT_ROWS = 5_000;

/** The columns an import reads, by their API names. */
type Column = 'nom' | 'email' | 'type_invite' | 'seats';

/**
 * The header names of each column (docs/events.md, "CSV import"): the API name, the English and
 * French words of the template and a few usual variants; compared without case, accents, spaces,
 * dashes or underscores.
 */
const HEADER_ALIASES: Record<Column, string[]> = {
  nom: ['nom', 'name', 'fullname', 'nomcomplet', 'guest', 'invite'],
  email: ['email', 'mail', 'emailaddress', 'courriel', 'adresseemail', 'adressecourriel'],
  type_invite: ['typeinvite', 'type', 'invitetype', 'category', 'categorie', 'typedinvite'],
  seats: ['seats', 'places', 'partysize', 'people', 'personnes', 'nombredepersonnes'],
};

/** A header cell or a value squashed for matching: no accents, case, spaces or punctuation. */
const squash = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The column a header cell names, or the cell lower-cased when it names none (ignored). */
function columnOf(header: string): string {
  const key = squash(header);
  for (const [column, aliases] of Object.entries(HEADER_ALIASES)) if (aliases.includes(key)) return column;
  return header.trim().toLowerCase();
}

/** The template's header in each language (docs/events.md, "CSV import"). */
export const TEMPLATE_HEADERS = {
  en: ['name', 'email', 'type', 'seats'],
  fr: ['nom', 'courriel', 'type', 'places'],
} as const;

/**
 * Parses an invite CSV (csv-parse): a header row naming the columns in English, French or by
 * their API names (`name`/`nom`, `email`/`courriel`, optional `type`/`type_invite` and
 * `seats`/`places`; see {@link HEADER_ALIASES}: case, accents and spaces ignored), separator `,`
 * or `;` (guessed from the header), UTF-8 with or without BOM, empty lines skipped. The rows'
 * values are keyed by the API names.
 * @throws CsvFileError when the header has no name or e-mail column, the quoting is broken, or
 * there are more than {@link MAX_IMPORT_ROWS} rows.
 */
export function parseInviteCsv(text: string): CsvRow[] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      columns: (header: string[]) => header.map(columnOf),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as typeof records;
  } catch (err) {
    throw new CsvFileError(`The CSV cannot be read: ${(err as Error).message}`);
  }
  if (records.length === 0 && !firstLine.trim())
    throw new CsvFileError('The CSV is empty: a header row is required.');
  const header = firstLine.split(delimiter).map((h) => columnOf(h.trim().replace(/^"|"$/g, '')));
  if (!header.includes('nom')) throw new CsvFileError('The CSV header has no "name" (or "nom") column.');
  if (!header.includes('email'))
    throw new CsvFileError('The CSV header has no "email" (or "courriel") column.');
  if (records.length > MAX_IMPORT_ROWS)
    throw new CsvFileError(`The CSV has more than ${MAX_IMPORT_ROWS} rows.`);
  return records.map((r) => ({ line: r.info.lines, values: r.record }));
}
