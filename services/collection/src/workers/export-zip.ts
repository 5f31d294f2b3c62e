/**
 * The "all data and media" zip of an export job (docs/collection.md, "Exports"): the CSV entry,
 * then each photo its rows name under `media/`, streamed entry after entry into one archive
 * (archiver), which the blob store reads as it is written.
 */
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive, type Archiver, type ZipEntryData } from 'archiver';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import QueryStream from 'pg-query-stream';
import type { BlobStore } from '../blob/blob-store.ts';
import type { ExportMediaRow } from '../data/export-query.ts';

/** What a media zip holds once written. */
export interface MediaZipResult {
  /** Rows of the first CSV entry (the submissions). */
  rows: number;
  /** Photos written under `media/`. */
  photos: number;
  /** Photos named by the CSV whose file the blob store did not have (left out, logged). */
  missing: string[];
}

/** What {@link mediaZip} reads. */
export interface MediaZipSource {
  /** The job's own connection (the COPY, then the media cursor, one after the other). */
  client: pg.Client;
  blobs: BlobStore;
  /**
   * The CSV entries, the submissions' table first: each entry's name (`<project>-<date>.csv`,
   * a repeat's `<project>-<date>-<repeat>.csv`), its header line (CSV text, with its line end)
   * and its SELECT, photo cells as paths in the zip (data/export-query.ts, `media`).
   */
  csvs: Array<{ name: string; header: string; sql: string }>;
  /** The photos of the export's rows in order (data/export-query.ts, `exportMediaSql`). */
  mediaSql: string;
  /**
   * Called as the archive advances with the rows of the CSV streamed so far and the place of
   * the last row whose photos are all in (0 before the media).
   */
  onProgress: (csvRows: number, mediaRows: number) => void;
}

/**
 * Appends `source` as one entry and resolves once archiver has written it whole (its `entry`
 * event), so the next source is opened only then: one photo stream at a time. Rejects when the
 * source fails (archiver pipes it without passing its errors on, so it would wait forever) or
 * when the archive fails or is destroyed.
 */
function appendEntry(archive: Archiver, source: Readable, data: ZipEntryData): Promise<void> {
  return new Promise<void>((ok, fail) => {
    const done = (err?: Error) => {
      archive.off('entry', onEntry).off('error', done).off('close', onClose);
      source.off('error', done);
      if (err) {
        source.destroy();
        fail(err);
      } else ok();
    };
    const onEntry = () => done();
    const onClose = () => done(new Error('the archive was closed before the entry was written'));
    archive.once('entry', onEntry).once('error', done).once('close', onClose);
    source.once('error', done);
    archive.append(source, data);
  });
}

/** Number of line feeds in a chunk (the rows of a CSV chunk, save values that hold line feeds). */
function lineFeeds(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * A zip of the export, streamed: `archive` is what the blob store reads; `done` resolves when
 * the last byte is out (or rejects, having destroyed the archive, so its reader stops too).
 *
 * Memory: one entry is open at a time. The CSV entry is PostgreSQL's COPY output (deflated as it
 * comes); then a cursor (pg-query-stream, 500 rows per fetch) gives each photo's path and blob
 * key, and each photo is read from the blob store and stored (no compression: JPEG, PNG, WebP,
 * HEIC and AVIF are compressed already) before the next is opened. Nothing grows with the
 * number of rows or photos but the central directory archiver keeps for the end of the file
 * (about 100 bytes per entry). A photo appearing twice in a row (one answer named twice) is
 * written once. Zip64 is used by archiver past 4 GiB or 65,535 entries.
 */
export function mediaZip(src: MediaZipSource): { archive: Archiver; done: Promise<MediaZipResult> } {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const produce = async (): Promise<MediaZipResult> => {
    let rows = 0;
    for (const [index, csv] of src.csvs.entries()) {
      let csvLines = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _enc, next) {
          csvLines += lineFeeds(chunk);
          if (index === 0) src.onProgress(csvLines, 0);
          next(null, chunk);
        },
      });
      counted.push(csv.header);
      const copy = src.client.query(copyTo(`COPY (${csv.sql}) TO STDOUT WITH (FORMAT csv)`));
      const piped = pipeline(copy, counted);
      piped.catch(() => undefined); // the entry fails with it (appendEntry)
      await appendEntry(archive, counted, { name: csv.name, date: new Date() });
      await piped;
      if (index === 0) rows = copy.rowCount;
    }
    src.onProgress(rows, 0);
    const cursor = src.client.query(new QueryStream(src.mediaSql, [], { batchSize: 500 }));
    let photos = 0;
    const missing: string[] = [];
    let last = '';
    try {
      for await (const m of cursor as AsyncIterable<ExportMediaRow>) {
        if (m.path === last) continue;
        last = m.path;
        const blob = await src.blobs.getStream(m.blob_key);
        if (!blob) missing.push(m.path);
        else {
          await appendEntry(archive, blob.stream, { name: m.path, store: true, date: new Date() });
          photos++;
        }
        src.onProgress(rows, Number(m.k) - 1);
      }
    } finally {
      cursor.destroy();
    }
    src.onProgress(rows, rows);
    await archive.finalize();
    return { rows, photos, missing };
  };
  const done = produce().catch((err: unknown) => {
    archive.destroy(err as Error);
    throw err;
  });
  done.catch(() => undefined); // the caller awaits it with the blob store's side
  return { archive, done };
}
