import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify as stringifySync } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import QueryStream from 'pg-query-stream';
import {
  EMAIL_REQUESTED,
  Exchanges,
  envelope,
  type EmailRequested,
  type Envelope,
} from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import { PermanentError, startConsumer, writeOutbox, type Broker } from '@fieldhouse/messaging';
import type { BlobStore } from '../blob/blob-store.ts';
import {
  DEFAULT_EXPORT_OPTIONS,
  exportColumns,
  exportHeader,
  typedValues,
  type ExportColumn,
} from '../domain/export-columns.ts';
import { neutraliseFormula } from '../domain/formula-escaping.ts';
import { inlineString } from './xlsx-cells.ts';
import { countExportRows, exportFields, exportSelectSql } from '../data/export-query.ts';
import { findProject } from '../data/projects.ts';
import { findUserById } from '../data/users.ts';
import {
  claimExport,
  findExport,
  heartbeatExport,
  type ExportFormat,
  type ExportJobRow,
} from '../data/exports.ts';

/** Routing key of an export job on the collection exchange: `{export_id}`. */
export const EXPORT_REQUESTED = 'export.requested';
/** Queue of the export worker. */
export const EXPORT_QUEUE = 'collection.exports';

/** Queues an export job: its message goes through the outbox, in the caller's transaction. */
export async function queueExport(trx: Knex | Knex.Transaction, exportId: string): Promise<void> {
  await writeOutbox(
    trx,
    'outbox',
    Exchanges.collection,
    envelope(Exchanges.collection, EXPORT_REQUESTED, { export_id: exportId }),
  );
}

export interface ExportSettings {
  /** How long a finished file stays downloadable (hours; EXPORT_TTL_HOURS). */
  ttlHours: number;
  /** A running job whose heartbeat is older than this is restarted (ms). */
  staleMs: number;
  /** How often a running job records its progress and heartbeat (ms). */
  heartbeatMs: number;
  /** Public address of the gateway: the download link in the requester's e-mail is absolute. */
  publicUrl: string;
}

/** File extension and content type of each format. */
export const FORMAT_FILES: Record<ExportFormat, { ext: string; contentType: string }> = {
  csv: { ext: 'csv', contentType: 'text/csv; charset=utf-8' },
  xlsx: { ext: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  geojson: { ext: 'geojson', contentType: 'application/geo+json' },
};

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
 *   [longitude, latitude] or null geometry, properties named as the CSV header.
 * Memory stays flat whatever the number of rows. Records progress every `heartbeatMs` (CSV:
 * line feeds so far, at most the row count). Resolves with the rows written and the blob key.
 */
export async function writeExportFile(
  db: Knex,
  blobs: BlobStore,
  job: ExportJobRow,
  heartbeatMs: number,
): Promise<{ rows: number; key: string }> {
  const options = { ...DEFAULT_EXPORT_OPTIONS, ...job.options };
  const { fields, latest } = await exportFields(db, job.project_id);
  const columns = exportColumns(fields, options);
  const header = exportHeader(columns, options);
  const total = await countExportRows(db, job);
  await db('exports').where({ id: job.id }).update({ total_rows: total });
  let rows = 0;
  const timer = setInterval(() => {
    heartbeatExport(db, job.id, Math.min(rows, total)).catch(() => undefined);
  }, heartbeatMs);
  const client = new pg.Client(db.client.connectionSettings as pg.ClientConfig);
  client.on('error', () => undefined); // a broken connection fails the query in flight
  try {
    await client.connect();
    const format = FORMAT_FILES[job.format] ? job.format : 'csv';
    const key = `exports/${job.id}/${job.attempts}.${FORMAT_FILES[format].ext}`;
    if (format === 'csv') {
      const escaping = options.formula_escaping;
      const sql = exportSelectSql(db, job, fields, latest, columns, { neutraliseFormulas: escaping });
      const copy = client.query(copyTo(`COPY (${sql}) TO STDOUT WITH (FORMAT csv)`));
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          rows += lineFeeds(chunk);
          done(null, chunk);
        },
      });
      counted.push(stringifySync([escaping ? header.map(neutraliseFormula) : header]));
      // An error on either side destroys the other, so neither promise hangs.
      await Promise.all([pipeline(copy, counted), blobs.putStream(key, counted)]);
      return { rows: copy.rowCount, key };
    }
    const sql = exportSelectSql(db, job, fields, latest, columns);
    const cursor = client.query(new QueryStream(sql, [], { rowMode: 'array', batchSize: 2000 }));
    const values = async function* () {
      for await (const row of cursor as AsyncIterable<Array<string | null>>) {
        rows++;
        yield typedValues(columns, row);
      }
    };
    if (format === 'xlsx') {
      const out = new PassThrough();
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
      });
      const sheet = workbook.addWorksheet('submissions');
      const produce = async () => {
        sheet.addRow(header.map(inlineString)).commit();
        for await (const row of values())
          sheet.addRow(row.map((v) => (typeof v === 'string' ? inlineString(v) : v))).commit();
        sheet.commit();
        await workbook.commit();
      };
      const producing = produce().catch((err: unknown) => {
        cursor.destroy();
        out.destroy(err as Error);
        throw err;
      });
      await Promise.all([producing, blobs.putStream(key, out)]);
      return { rows, key };
    }
    const writer = geoJsonWriter(header, columns);
    // The cursor feeds the writer; the blob store drains it (an error on either side
    // destroys the other, so neither promise hangs).
    await Promise.all([pipeline(values, writer), blobs.putStream(key, writer)]);
    return { rows, key };
  } finally {
    clearInterval(timer);
    await client.end().catch(() => undefined);
  }
}

/**
 * Rows of export values (aligned with `header` and `columns`) in, GeoJSON FeatureCollection text
 * out; the point is the submission's own latitude and longitude, found by column, not by header
 * text (which may be labels).
 */
function geoJsonWriter(header: string[], columns: ExportColumn[]): Transform {
  const metaIndex = (column: string) =>
    columns.findIndex((c) => c.source.kind === 'meta' && c.source.column === column);
  const lat = metaIndex('latitude');
  const lon = metaIndex('longitude');
  let first = true;
  return new Transform({
    writableObjectMode: true,
    transform(values: Array<string | number | null>, _enc, done) {
      const properties: Record<string, string | number | null> = {};
      header.forEach((h, i) => (properties[h] = values[i] ?? null));
      const la = values[lat];
      const lo = values[lon];
      const geometry =
        typeof la === 'number' && typeof lo === 'number' ? { type: 'Point', coordinates: [lo, la] } : null;
      const feature = JSON.stringify({ type: 'Feature', id: values[0], geometry, properties });
      done(null, `${first ? '{"type":"FeatureCollection","features":[\n' : ',\n'}${feature}`);
      first = false;
    },
    flush(done) {
      done(null, first ? '{"type":"FeatureCollection","features":[]}\n' : '\n]}\n');
    },
  });
}

/**
 * Queues the requester's e-mail about a finished or failed job (spec 6), in `trx`; a finished
 * job's e-mail carries the absolute download link (`<publicUrl>/api/v1/exports/<id>/download`).
 */
async function notifyRequester(
  trx: Knex.Transaction,
  publicUrl: string,
  job: ExportJobRow,
  outcome: 'completed' | 'failed',
  detail: string,
) {
  const to = (await findUserById(trx, job.requested_by))?.email;
  if (!to) return;
  const name = (await findProject(trx, job.project_id))?.name ?? `#${job.project_id}`;
  const email: EmailRequested = {
    to: [to],
    subject: outcome === 'completed' ? `Your export of ${name} is ready` : `Your export of ${name} failed`,
    text:
      outcome === 'completed'
        ? `The ${job.format.toUpperCase()} export ${job.id} of project "${name}" is ready: ${detail}.\n` +
          `Download it from ${publicUrl}/api/v1/exports/${job.id}/download before it expires ` +
          `(signed in as the requester or a manager of the workspace).`
        : `The ${job.format.toUpperCase()} export ${job.id} of project "${name}" failed: ${detail}`,
    reason: outcome === 'completed' ? 'export-completed' : 'export-failed',
  };
  await writeOutbox(
    trx,
    'outbox',
    Exchanges.collection,
    envelope(Exchanges.collection, EMAIL_REQUESTED, email),
  );
}

/**
 * Runs one delivery of a job message. Outcomes:
 * - job finished already: nothing (a duplicate message);
 * - another live worker holds it (fresh heartbeat): throws, so the message comes back later;
 * - written: `completed` with the file, its expiry and the requester's e-mail, in one transaction
 *   guarded by the attempt number (a worker that lost the job to a restart drops its file);
 * - failed on the last attempt: `failed` with the reason and an e-mail, then the error goes up
 *   (the consumer dead-letters the message); before that: back to `queued`, error up (retry).
 */
export async function runExportJob(
  deps: { db: Knex; blobs: BlobStore; logger: Logger; settings: ExportSettings; onOutbox?: () => void },
  exportId: string,
  lastAttempt: boolean,
): Promise<void> {
  const { db, blobs, settings } = deps;
  const job = await claimExport(db, exportId, settings.staleMs);
  if (!job) {
    const row = await findExport(db, exportId);
    if (!row) throw new PermanentError(`export ${exportId} does not exist`);
    if (row.status === 'completed' || row.status === 'failed') return;
    throw new Error(`export ${exportId} is being written by another worker`);
  }
  try {
    const { rows, key } = await writeExportFile(db, blobs, job, settings.heartbeatMs);
    const owned = await db.transaction(async (trx) => {
      const n = await trx('exports')
        .where({ id: job.id, status: 'running', attempts: job.attempts })
        .update({
          status: 'completed',
          rows_written: rows,
          total_rows: rows,
          blob_key: key,
          error: null,
          finished_at: trx.fn.now(),
          expires_at: trx.raw(`now() + make_interval(hours => ?)`, [settings.ttlHours]),
        });
      if (n === 1)
        await notifyRequester(
          trx,
          settings.publicUrl,
          job,
          'completed',
          `${rows} row${rows === 1 ? '' : 's'}`,
        );
      return n === 1;
    });
    if (!owned) await blobs.delete(key);
    else deps.onOutbox?.();
    deps.logger.info('export completed', { exportId, rows, owned });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await db.transaction(async (trx) => {
      const n = await trx('exports')
        .where({ id: job.id, status: 'running', attempts: job.attempts })
        .update(
          lastAttempt
            ? { status: 'failed', error: reason.slice(0, 1000), finished_at: trx.fn.now() }
            : { status: 'queued', error: reason.slice(0, 1000) },
        );
      if (n === 1 && lastAttempt)
        await notifyRequester(trx, settings.publicUrl, job, 'failed', reason.slice(0, 500));
    });
    if (lastAttempt) deps.onOutbox?.();
    throw err;
  }
}

/**
 * The export worker: consumes `export.requested` from `collection.exports`; the message is
 * acknowledged only when the job ended (completed, or failed and dead-lettered), so a worker
 * killed mid-job leaves it to RabbitMQ to redeliver; retries with backoff, then the DLQ.
 */
export function startExportWorker(opts: {
  broker: Broker;
  db: Knex;
  blobs: BlobStore;
  logger: Logger;
  settings: ExportSettings;
  retryDelaysMs?: number[];
  onOutbox?: () => void;
}) {
  const delays = opts.retryDelaysMs ?? [1_000, 5_000, 30_000];
  return startConsumer(opts.broker, {
    queue: EXPORT_QUEUE,
    bindings: [{ exchange: Exchanges.collection, pattern: EXPORT_REQUESTED }],
    logger: opts.logger,
    retryDelaysMs: delays,
    prefetch: 1,
    handler: async (message: Envelope, ctx) => {
      const id = (message.data as { export_id?: unknown }).export_id;
      if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id))
        throw new PermanentError('export job without a valid export_id');
      await runExportJob(opts, id, ctx.attempt > delays.length);
    },
  });
}

/**
 * The periodic sweep: deletes the files of completed jobs past `expires_at` (the job keeps its
 * row, marked expired), and puts `running` jobs whose heartbeat is stale back in the queue with
 * a new message, so no job stays `running` forever. Resolves with what it did.
 */
export async function sweepExports(
  db: Knex,
  blobs: BlobStore,
  staleMs: number,
): Promise<{ deleted: number; requeued: number }> {
  const expired = (await db('exports')
    .where('status', 'completed')
    .whereNull('file_deleted_at')
    .where('expires_at', '<=', db.fn.now())
    .select('id', 'blob_key')) as Array<{ id: string; blob_key: string | null }>;
  for (const e of expired) {
    if (e.blob_key) await blobs.delete(e.blob_key);
    await db('exports').where({ id: e.id }).update({ file_deleted_at: db.fn.now(), blob_key: null });
  }
  const requeued = await db.transaction(async (trx) => {
    const stale = (await trx('exports')
      .where('status', 'running')
      .where('heartbeat_at', '<', trx.raw(`now() - make_interval(secs => ?)`, [staleMs / 1000]))
      .forUpdate()
      .skipLocked()
      .select('id')) as Array<{ id: string }>;
    for (const s of stale) {
      await trx('exports')
        .where({ id: s.id })
        .update({ status: 'queued', error: 'the worker stopped responding; the job was restarted' });
      await queueExport(trx, s.id);
    }
    return stale.length;
  });
  return { deleted: expired.length, requeued };
}
