/**
 * Reading an uploaded XLSForm workbook safely (issue 35; docs/collection.md, "XLSForm"): the
 * `.xlsx` container is checked before exceljs reads it (a zip whose central directory and every
 * entry unpack within the limits: no zip bomb, no encrypted or ZIP64 entries), then each sheet
 * becomes a table of text cells. Formulas and error values are refused, not evaluated.
 */
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { problems, type XlsFormIssue } from './problems.ts';

/** The largest XLSForm file taken, in bytes (5 MiB; a 500-question form is about 60 KB). */
export const XLSFORM_MAX_BYTES = 5 * 1024 * 1024;
/** The most a workbook may unpack to, all its parts together (20 MiB). */
const MAX_UNPACKED_BYTES = 20 * 1024 * 1024;
/** The most parts (files) the zip may hold. */
const MAX_ENTRIES = 1000;
/** The most rows a sheet may have (header included), and columns. */
const MAX_SHEET_ROWS = 20_000;
const MAX_SHEET_COLUMNS = 200;

/** One sheet as text: its name as written, headers by column (1-based) and the rows below them. */
export interface SheetTable {
  name: string;
  /** Header text of each column, trimmed; index 0 unused. */
  headers: string[];
  /** Rows below the header that hold at least one value, by their spreadsheet number. */
  rows: { number: number; cells: string[] }[];
  /** Too large to be read (`too_many_rows`): no headers or rows. */
  unread?: boolean;
}

/** An issue about the workbook itself or one of its cells. */
export function issue(
  at: { sheet?: string; row?: number; column?: string },
  reason: string,
  message: string,
  values: Record<string, string | number> = {},
): XlsFormIssue {
  const key = at.sheet
    ? [at.sheet, at.row, at.column].filter((p) => p !== undefined && p !== '').join('.')
    : 'file';
  return {
    key,
    sheet: at.sheet ?? null,
    row: at.row ?? null,
    column: at.column ?? null,
    reason,
    values,
    message,
  };
}

const notXlsx = () =>
  problems.xlsformInvalid({
    issues: [
      issue(
        {},
        'not_xlsx',
        'The file is not an .xlsx workbook (an .xls or .ods file must be saved as .xlsx first).',
      ),
    ],
  });

/**
 * Checks the zip container of an `.xlsx` without trusting its declared sizes: every entry is
 * unpacked here with a cap on its output (its declared size), so a part that unpacks to more
 * than it says, or parts that unpack to more than {@link MAX_UNPACKED_BYTES} together, are
 * refused before exceljs reads anything (APPNOTE.TXT: end of central directory record 4.3.16,
 * central directory file header 4.3.12, local file header 4.3.7).
 * @throws 422 `xlsform_invalid` (`not_xlsx`) for anything but a plain zip with an Office
 *   workbook in it; 413 `xlsform_too_large` (unpacked) for a zip bomb.
 */
function checkZip(bytes: Buffer): void {
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) throw notXlsx();
  const entries = bytes.readUInt16LE(eocd + 10);
  const cdSize = bytes.readUInt32LE(eocd + 12);
  const cdOffset = bytes.readUInt32LE(eocd + 16);
  if (entries > MAX_ENTRIES || cdOffset + cdSize > bytes.length) throw notXlsx();
  let total = 0;
  let p = cdOffset;
  const names = new Set<string>();
  for (let i = 0; i < entries; i++) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== 0x02014b50) throw notXlsx();
    const flags = bytes.readUInt16LE(p + 8);
    const method = bytes.readUInt16LE(p + 10);
    const compressed = bytes.readUInt32LE(p + 20);
    const size = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const local = bytes.readUInt32LE(p + 42);
    names.add(bytes.toString('utf8', p + 46, p + 46 + nameLength));
    p += 46 + nameLength + extraLength + commentLength;
    // Encrypted entries, ZIP64 sizes and methods other than stored/deflate: not a workbook we read.
    if (flags & 1 || compressed === 0xffffffff || size === 0xffffffff || (method !== 0 && method !== 8))
      throw notXlsx();
    total += size;
    if (total > MAX_UNPACKED_BYTES)
      throw problems.xlsformTooLarge({ maxBytes: MAX_UNPACKED_BYTES, unpacked: true });
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw notXlsx();
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressed > bytes.length) throw notXlsx();
    const data = bytes.subarray(start, start + compressed);
    if (method === 0) {
      if (compressed !== size) throw notXlsx();
      continue;
    }
    let out: Buffer;
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, size) });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw problems.xlsformTooLarge({ maxBytes: MAX_UNPACKED_BYTES, unpacked: true });
      throw notXlsx();
    }
    if (out.length !== size) throw notXlsx();
  }
  if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml')) throw notXlsx();
}

/** Offset of the end of central directory record (it ends the file, after a comment of ≤ 64 KiB), or -1. */
function findEndOfCentralDirectory(bytes: Buffer): number {
  const last = bytes.length - 22;
  for (let i = last; i >= 0 && i >= last - 0xffff; i--) if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  return -1;
}

/** A cell's value as XLSForm reads it: text, or why it cannot be read. */
function cellText(value: ExcelJS.CellValue): { text: string } | { refused: 'formula' | 'error' } {
  if (value === null || value === undefined) return { text: '' };
  if (typeof value === 'string') return { text: value.trim() };
  if (typeof value === 'number') return { text: String(value) };
  if (typeof value === 'boolean') return { text: value ? 'true' : 'false' };
  if (value instanceof Date) {
    const iso = value.toISOString();
    return { text: iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso };
  }
  if ('formula' in value || 'sharedFormula' in value) return { refused: 'formula' };
  if ('error' in value) return { refused: 'error' };
  if ('richText' in value)
    return {
      text: value.richText
        .map((r) => r.text)
        .join('')
        .trim(),
    };
  if ('text' in value) return { text: String(value.text).trim() };
  return { text: '' };
}

/**
 * Reads the sheets of an `.xlsx` XLSForm as text tables, by lower-case sheet name, with the
 * issues of its cells: formulas and error values (`formula`, `error_value`: a form is written as
 * values; such a cell reads as empty), a sheet over {@link MAX_SHEET_ROWS} rows or
 * {@link MAX_SHEET_COLUMNS} columns (`too_many_rows`, `too_many_columns`; not read).
 * @throws 413 `xlsform_too_large` (the file, or what it unpacks to); 422 `xlsform_invalid`
 *   (`not_xlsx`) for anything but an `.xlsx` workbook.
 */
export async function readWorkbook(
  bytes: Buffer,
): Promise<{ sheets: Map<string, SheetTable>; issues: XlsFormIssue[] }> {
  if (bytes.length > XLSFORM_MAX_BYTES)
    throw problems.xlsformTooLarge({ maxBytes: XLSFORM_MAX_BYTES, unpacked: false });
  checkZip(bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw notXlsx();
  }
  const issues: XlsFormIssue[] = [];
  const sheets = new Map<string, SheetTable>();
  workbook.eachSheet((ws) => {
    const name = ws.name.trim();
    const table: SheetTable = { name, headers: [], rows: [] };
    const sheet = name.toLowerCase();
    if (ws.rowCount > MAX_SHEET_ROWS) {
      issues.push(
        issue({ sheet }, 'too_many_rows', `The ${name} sheet has more than ${MAX_SHEET_ROWS} rows.`, {
          limit: MAX_SHEET_ROWS,
        }),
      );
      if (!sheets.has(sheet)) sheets.set(sheet, { ...table, unread: true });
      return;
    }
    let tooWide = false;
    let headerRow = 0;
    ws.eachRow({ includeEmpty: false }, (row, number) => {
      const cells: string[] = [];
      let any = false;
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        if (col > MAX_SHEET_COLUMNS) {
          tooWide = true;
          return;
        }
        const read = cellText(cell.value);
        const column = headerRow ? table.headers[col] || cell.address.replace(/\d+$/, '') : cell.address;
        if ('refused' in read) {
          issues.push(
            read.refused === 'formula'
              ? issue(
                  { sheet, row: number, column },
                  'formula',
                  'A formula: an XLSForm is written as values (type the value itself).',
                )
              : issue(
                  { sheet, row: number, column },
                  'error_value',
                  'A spreadsheet error value (#N/A, #REF!...).',
                ),
          );
          return;
        }
        cells[col] = read.text;
        if (read.text) any = true;
      });
      if (!headerRow) {
        headerRow = number;
        table.headers = Array.from(cells, (c) => c ?? '');
      } else if (any) table.rows.push({ number, cells });
    });
    if (tooWide)
      issues.push(
        issue(
          { sheet },
          'too_many_columns',
          `The ${name} sheet has more than ${MAX_SHEET_COLUMNS} columns.`,
          {
            limit: MAX_SHEET_COLUMNS,
          },
        ),
      );
    if (!sheets.has(sheet)) sheets.set(sheet, table);
  });
  return { sheets, issues };
}
