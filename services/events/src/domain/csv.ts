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

/**
 * Parses an invite CSV (csv-parse): a header row naming the columns (`nom`, `email`, optional
 * `type_invite`; case-insensitive, surrounding spaces ignored), separator `,` or `;` (guessed
 * from the header), UTF-8 with or without BOM, empty lines skipped.
 * @throws CsvFileError when the header lacks `nom` or `email`, the quoting is broken, or there
 * are more than {@link MAX_IMPORT_ROWS} rows.
 */
export function parseInviteCsv(text: string): CsvRow[] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
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
  const header = firstLine.split(delimiter).map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  for (const column of ['nom', 'email'])
    if (!header.includes(column)) throw new CsvFileError(`The CSV header has no "${column}" column.`);
  if (records.length > MAX_IMPORT_ROWS)
    throw new CsvFileError(`The CSV has more than ${MAX_IMPORT_ROWS} rows.`);
  return records.map((r) => ({ line: r.info.lines, values: r.record }));
}
