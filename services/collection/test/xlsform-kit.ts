import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

/**
 * An `.xlsx` workbook from a table written the way pyxform's tests write theirs (the `md` of
 * `assertPyxformXform`): a line whose first cell is not empty starts a sheet of that name, the
 * lines below it (first cell empty) are its rows, the first of them the headers. A cell
 * `=...` becomes a formula.
 */
export async function workbookOf(md: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  for (const line of md.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('|')) continue;
    const cells = trimmed
      .slice(1, trimmed.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) => c.trim());
    if (cells[0]) {
      sheet = workbook.addWorksheet(cells[0]);
      continue;
    }
    if (!sheet) throw new Error('a row before any sheet');
    const row = sheet.addRow([]);
    cells.slice(1).forEach((c, i) => {
      if (!c) return;
      row.getCell(i + 1).value = c.startsWith('=') ? { formula: c.slice(1), result: 'x' } : c;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * A zip archive built by hand (APPNOTE.TXT 4.3), its entries deflated, with each entry's declared
 * uncompressed size `declared` when given (a lie, for the zip-bomb tests) instead of the real one.
 */
export function zipOf(entries: { name: string; data: Buffer; declared?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data);
    const size = e.declared ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A sheet's rows as objects keyed by header; the headers are those met, in order. */
type SheetRows = Record<string, string | number>[];

/** An `.xlsx` workbook of sheets given as rows of `{header: value}` (headers in order of first use). */
export async function workbookFrom(sheets: Record<string, SheetRows>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const headers = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const ws = workbook.addWorksheet(name);
    ws.addRow(headers);
    for (const r of rows) ws.addRow(headers.map((h) => r[h] ?? null));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
