/**
 * The file of an export job (docs/collection.md, "Exports"): the query streamed from PostgreSQL
 * into the blob store as CSV, xlsx, GeoJSON or a zip of the CSV and the photos, under the job's
 * lease.
 */
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify as stringifySync } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import QueryStream from 'pg-query-stream';
import type { BlobStore } from '../blob/blob-store.ts';
import type { PhotoCells } from '../domain/types.ts';
import {
  DEFAULT_EXPORT_OPTIONS,
  exportHeader,
  exportTables,
  typedValues,
  type ExportColumn,
  type ExportTable,
} from '../domain/export-columns.ts';
import { neutraliseFormula } from '../domain/formula-escaping.ts';
import { countExportRows, exportFields, exportMediaSql, exportSelectSql } from '../data/export-query.ts';
import { renewExportLease, type ExportJobRow } from '../data/exports.ts';
import { findProject } from '../data/projects.ts';
import { exportFileName, FORMAT_FILES } from '../domain/export-names.ts';
import { mediaZip } from './export-zip.ts';
import { inlineString } from './xlsx-cells.ts';

/** Number of line feeds in a chunk: the rows of a CSV chunk, save values that hold line feeds. */
function lineFeeds(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Writes a job's file into the blob store under `exports/<id>/<attempt>.<ext>`. The columns
 * and values are computed by PostgreSQL ({@link exportSelectSql}) on a connection of the job's
 * own, and streamed:
 * - CSV: the header (csv-stringify), then PostgreSQL's own `COPY (...) TO STDOUT WITH (FORMAT
 *   csv)` (pg-copy-streams), byte for byte; RFC 4180 quoting is PostgreSQL's;
 * - xlsx: a cursor (pg-query-stream, 2,000 rows per fetch) into exceljs's `WorkbookWriter` (one
 *   sheet, each row committed as it comes, numeric columns as numbers);
 * - GeoJSON: the same cursor into a FeatureCollection, one Feature per submission, Point
 *   [longitude, latitude] or null geometry, properties named as the CSV header;
 * - zip ("all data and media"): the CSV as an entry `<project>-<date>.csv` whose photo cells
 *   are the photos' paths in the zip, then each photo under `media/` (workers/export-zip.ts).
 * Photo cells of the other formats are absolute URLs (`publicUrl` + the API path).
 * Memory stays flat whatever the number of rows. From the start, every `heartbeatMs`, renews
 * the job's lease and records progress (CSV: line feeds so far, at most the row count; zip:
 * half of it the CSV's rows, half the rows whose photos are in); when
 * the renewal finds the job no longer this worker's, it stops at once (the stream into the blob
 * store is destroyed, so its temporary file goes; the query's connection is closed) and rejects
 * with {@link LeaseLostError}. Resolves with the rows written and the key (and for a zip, the
 * paths of the photos the blob store did not have, left out of it).
 */
export async function writeExportFile(
  db: Knex,
  blobs: BlobStore,
  job: ExportJobRow,
  { heartbeatMs, leaseMs, publicUrl }: { heartbeatMs: number; leaseMs: number; publicUrl: string },
): Promise<{ rows: number; key: string; missingPhotos?: string[] }> {
  let rows = 0;
  let total: number | undefined;
  let lost = false;
  /** The stream the blob store reads, once there is one. */
  let file: Readable | undefined;
  let giveUp!: (err: Error) => void;
  const leaseLost = new Promise<never>((_, reject) => (giveUp = reject));
  leaseLost.catch(() => undefined);
  /** Waits for `work`, or rejects as soon as the lease is lost. */
  const unlessLost = <T>(work: Promise<T>) => Promise.race([work, leaseLost]);
  const client = new pg.Client(db.client.connectionSettings as pg.ClientConfig);
  client.on('error', () => undefined); // a broken connection fails the query in flight
  const renew = async () => {
    if (lost || (await renewExportLease(db, job, Math.min(rows, total ?? 0), leaseMs))) return;
    lost = true;
    const err = new LeaseLostError(job.id);
    giveUp(err);
    file?.on('error', () => undefined).destroy(err); // the blob store's own pipeline reports it
    await client.end(); // fails the query in flight
  };
  const timer = setInterval(() => void renew().catch(() => undefined), heartbeatMs);
  try {
    const options = { ...DEFAULT_EXPORT_OPTIONS, ...job.options };
    const { fields, latest: newest } = await exportFields(db, job.project_id, options.lang);
    const tables = exportTables(fields, options);
    const { columns } = tables[0]!;
    const header = exportHeader(columns, options);
    // Entries read by position only in a flat form (in a structured one, groups have no entry
    // and repeat fields are not at the top level).
    const latest = fields.some((f) => f.repeats.length || f.type === 'group' || f.type === 'note')
      ? 0
      : newest;
    total = await countExportRows(db, job);
    await db('exports').where({ id: job.id }).update({ total_rows: total });
    if (lost) throw new LeaseLostError(job.id);
    await client.connect();
    const format = FORMAT_FILES[job.format] ? job.format : 'csv';
    // A form with repeats: its CSV is a zip of one CSV per table.
    const zipped = format === 'zip' || (format === 'csv' && tables.length > 1);
    const key = `exports/${job.id}/${job.attempts}.${FORMAT_FILES[zipped ? 'zip' : format].ext}`;
    const escaping = options.formula_escaping;
    const csvHeaderOf = (h: string[]) => stringifySync([escaping ? h.map(neutraliseFormula) : h]);
    const csvHeader = csvHeaderOf(header);
    const photos = { kind: 'url', base: publicUrl } as const;
    const tableSql = (t: ExportTable, opts: { neutraliseFormulas?: boolean; photos: PhotoCells }) =>
      exportSelectSql(db, job, fields, latest, t.columns, { ...opts, repeats: t.repeats });
    if (zipped) {
      const project = await findProject(db, job.project_id);
      const csvName = exportFileName(project?.name, job.created_at, 'csv');
      const photoFieldsOf = (t: ExportTable) =>
        t.columns.flatMap((c) => (c.source.kind === 'photo' ? [c.source.uuid] : []));
      const media = format === 'zip';
      const zip = mediaZip({
        client,
        blobs,
        csvs: tables.map((t) => ({
          name: t.name === null ? csvName : `${csvName.slice(0, -'.csv'.length)}-${t.name}.csv`,
          header: csvHeaderOf(exportHeader(t.columns, options)),
          sql: tableSql(t, { neutraliseFormulas: escaping, photos: media ? { kind: 'media' } : photos }),
        })),
        mediaSql: media
          ? exportMediaSql(
              db,
              job,
              photoFieldsOf(tables[0]!),
              tables.slice(1).map((t) => ({ repeats: t.repeats, photoFields: photoFieldsOf(t) })),
            )
          : exportMediaSql(db, job, []),
        onProgress: (csvRows, mediaRows) =>
          (rows = media
            ? Math.floor((Math.min(csvRows, total ?? 0) + mediaRows) / 2)
            : Math.min(csvRows, total ?? 0)),
      });
      file = zip.archive;
      const [written] = await unlessLost(Promise.all([zip.done, blobs.putStream(key, zip.archive)]));
      return { rows: written.rows, key, missingPhotos: written.missing };
    }
    if (format === 'csv') {
      const sql = exportSelectSql(db, job, fields, latest, columns, { neutraliseFormulas: escaping, photos });
      const copy = client.query(copyTo(`COPY (${sql}) TO STDOUT WITH (FORMAT csv)`));
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          rows += lineFeeds(chunk);
          done(null, chunk);
        },
      });
      counted.push(csvHeader);
      file = counted;
      // An error on either side destroys the other, so neither promise hangs.
      await unlessLost(Promise.all([pipeline(copy, counted), blobs.putStream(key, counted)]));
      return { rows: copy.rowCount, key };
    }
    /** Each row of table `t` as typed values; the submissions' table counts the rows. */
    const cursors: Array<{ destroy: () => void }> = [];
    const values = async function* (t: ExportTable) {
      const cursor = client.query(
        new QueryStream(tableSql(t, { photos }), [], { rowMode: 'array', batchSize: 2000 }),
      );
      cursors.push(cursor);
      for await (const row of cursor as AsyncIterable<Array<string | null>>) {
        if (t.name === null) rows++;
        yield typedValues(t.columns, row);
      }
    };
    if (format === 'xlsx') {
      const out = new PassThrough();
      file = out;
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
      });
      const produce = async () => {
        for (const [t, name] of sheetNames(tables)) {
          const sheet = workbook.addWorksheet(name);
          sheet.addRow(exportHeader(t.columns, options).map(inlineString)).commit();
          for await (const row of values(t))
            sheet.addRow(row.map((v) => (typeof v === 'string' ? inlineString(v) : v))).commit();
          sheet.commit();
        }
        await workbook.commit();
      };
      const producing = produce().catch((err: unknown) => {
        for (const c of cursors) c.destroy();
        out.destroy(err as Error);
        throw err;
      });
      await unlessLost(Promise.all([producing, blobs.putStream(key, out)]));
      return { rows, key };
    }
    const writer = geoJsonWriter();
    file = writer;
    const features = async function* () {
      for (const t of tables) {
        const place = geometryOf(t);
        if (!place) continue;
        const h = exportHeader(t.columns, options);
        for await (const row of values(t)) yield { header: h, place, row };
      }
    };
    // The cursors feed the writer; the blob store drains it (an error on either side
    // destroys the other, so neither promise hangs).
    await unlessLost(Promise.all([pipeline(features, writer), blobs.putStream(key, writer)]));
    return { rows, key };
  } catch (err) {
    throw lost ? new LeaseLostError(job.id) : err;
  } finally {
    clearInterval(timer);
    await client.end().catch(() => undefined);
  }
}

/** The job's lease lapsed while this worker wrote it, and another worker (or the sweep) took it. */
class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(exportId: string) {
    super(`export ${exportId}: this worker's lease lapsed and the job was taken over`);
  }
}

/**
 * The sheet name of each table: `submissions`, then each repeat's name, cut to Excel's 31
 * characters and made unique with `~2`, `~3`... (field names hold none of Excel's forbidden
 * characters `[]:*?/\`).
 */
function sheetNames(tables: ExportTable[]): Array<[ExportTable, string]> {
  const used = new Set<string>();
  return tables.map((t) => {
    const base = (t.name ?? 'submissions').replace(/[[\]:*?/\\]/g, '_').slice(0, 31);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - `~${n}`.length)}~${n}`;
    used.add(name.toLowerCase());
    return [t, name];
  });
}

/** Where a feature's id and point are read in a table's row: column places. */
interface Place {
  id: number;
  lat: number;
  lon: number;
}

/**
 * The point of a table's features: the submission's own latitude and longitude in the
 * submissions' table; in a repeat's table, the first geopoint of the repeat (a table without
 * one gives no features). Found by column, not by header text (which may be labels).
 */
function geometryOf(t: ExportTable): Place | undefined {
  const at = (match: (c: ExportColumn) => boolean) => t.columns.findIndex(match);
  if (t.name === null)
    return {
      id: 0,
      lat: at((c) => c.source.kind === 'meta' && c.source.column === 'latitude'),
      lon: at((c) => c.source.kind === 'meta' && c.source.column === 'longitude'),
    };
  const lat = at((c) => c.source.kind === 'geo' && c.source.index === 0);
  if (lat === -1) return undefined;
  const uuid = (t.columns[lat]!.source as { uuid: string }).uuid;
  const id = at((c) => c.source.kind === 'instance' && c.source.part === 'key');
  return {
    id,
    lat,
    lon: at((c) => c.source.kind === 'geo' && c.source.uuid === uuid && c.source.index === 1),
  };
}

/**
 * Rows of export values (with their table's header and point columns) in, GeoJSON
 * FeatureCollection text out: one Feature per row, its id the submission id (or a repeat
 * instance's `key`), Point [longitude, latitude] or null geometry, properties named as the
 * header.
 */
function geoJsonWriter(): Transform {
  let first = true;
  return new Transform({
    writableObjectMode: true,
    transform(
      { header, place, row: values }: { header: string[]; place: Place; row: Array<string | number | null> },
      _enc,
      done,
    ) {
      const properties: Record<string, string | number | null> = {};
      header.forEach((h, i) => (properties[h] = values[i] ?? null));
      const la = values[place.lat];
      const lo = values[place.lon];
      const geometry =
        typeof la === 'number' && typeof lo === 'number' ? { type: 'Point', coordinates: [lo, la] } : null;
      const feature = JSON.stringify({ type: 'Feature', id: values[place.id], geometry, properties });
      done(null, `${first ? '{"type":"FeatureCollection","features":[\n' : ',\n'}${feature}`);
      first = false;
    },
    flush(done) {
      done(null, first ? '{"type":"FeatureCollection","features":[]}\n' : '\n]}\n');
    },
  });
}
