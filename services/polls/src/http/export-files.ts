import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { Cell, ExportTable } from '../domain/exports.ts';

/**
 * Writes an export table (domain/exports.ts) to the HTTP answer as a download, row by row
 * (memory stays flat however many votes): CSV (RFC 4180, UTF-8 with a byte-order mark so
 * spreadsheets read accents) with csv-stringify, or XLSX with exceljs's streaming writer, the
 * libraries the collection service's exports use (docs/polls.md, "Exports").
 *
 * Formulas (CSV injection): voters write `voter_name` and option labels come from the owner,
 * and a spreadsheet runs a cell starting with `=`, `+`, `-`, `@`, tab or carriage return as a
 * formula. In CSV such text cells get a leading `'`; in XLSX every text cell is an inline
 * string (`t="inlineStr"`), text by type, which no spreadsheet evaluates, so it is kept as is.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell: text that a spreadsheet would run as a formula gets a leading `'`. */
const csvCell = (v: Cell): string | number | null =>
  typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : v;

/** Characters XML 1.0 cannot hold (and the carriage return), written as OOXML `_xHHHH_` escapes. */
// eslint-disable-next-line no-control-regex
const XML_UNSAFE = /[\u0000-\u0008\u000B\u000C\u000D\u000E-\u001F\uFFFE\uFFFF]/g;

/** An XLSX cell: numbers as numbers, text as an inline string (never a formula). */
const xlsxCell = (v: Cell): ExcelJS.CellValue => {
  if (typeof v !== 'string') return v;
  const text = v
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(XML_UNSAFE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
  return { richText: [{ text }] };
};

/** The rows with their CSV cells escaped (see above). */
async function* csvRows(rows: AsyncIterable<Cell[]>): AsyncIterable<Array<string | number | null>> {
  for await (const row of rows) yield row.map(csvCell);
}

/**
 * Sends `table` as `<name>.csv` or `<name>.xlsx` (`Content-Disposition: attachment`). A client
 * that goes away stops the writing (and with it the votes' cursor); the promise settles then too.
 */
export async function sendExport(res: Response, table: ExportTable, format: 'csv' | 'xlsx'): Promise<void> {
  res.set('Content-Disposition', `attachment; filename="${table.name}.${format}"`);
  res.set('Cache-Control', 'no-store');
  if (format === 'csv') {
    res.type('text/csv; charset=utf-8');
    const csv = stringify({ header: true, columns: table.header, bom: true });
    // pipeline ends the answer, and on a closed socket destroys the rest (the cursor included).
    await pipeline(Readable.from(csvRows(table.rows)), csv, res).catch((err: unknown) => {
      if (!res.destroyed) throw err;
    });
    return;
  }
  res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: res,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = book.addWorksheet(table.sheet);
  sheet.addRow(table.header.map(xlsxCell)).commit();
  for await (const row of table.rows) {
    if (res.destroyed) return; // leaving the loop closes the votes' cursor
    sheet.addRow(row.map(xlsxCell)).commit();
  }
  sheet.commit();
  await Promise.race([book.commit(), gone]);
}
