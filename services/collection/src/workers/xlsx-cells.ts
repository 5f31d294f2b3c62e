import type ExcelJS from 'exceljs';

/** Characters XML 1.0 cannot hold, and the carriage return, which XML readers turn into a line feed. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000D\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * `text` in the escaping of OOXML strings (ECMA-376 ST_Xstring): a literal `_xHHHH_` gets its
 * underscore escaped (`_x005F_`), then each character XML cannot carry as is (control
 * characters, carriage return) becomes `_xHHHH_`, which spreadsheets (and exceljs) decode back.
 * So a cell reads exactly the answer that was stored, and a stray control character cannot make
 * the file unreadable.
 */
function ooxmlText(text: string): string {
  return text
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(UNSAFE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

/**
 * A text cell as an inline string (`t="inlineStr"`, one run). Without shared strings exceljs
 * writes a plain string as `t="str"`, the type of a formula's cached result; an inline string
 * is text by type, which no spreadsheet evaluates, whatever its first character
 * (docs/collection.md, "Exports").
 */
export const inlineString = (text: string): ExcelJS.CellRichTextValue => ({
  richText: [{ text: ooxmlText(text) }],
});
