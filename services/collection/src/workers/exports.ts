import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
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
  failAbandonedExport,
  renewExportLease,
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
  /**
   * How long a claim holds a job without renewal (ms; EXPORT_LEASE_SECONDS). Once it lapses
   * (the worker died or lost the database) the next delivery or the sweep takes the job over.
   */
  leaseMs: number;
  /** How often a running job renews its lease and records its progress (ms); well under `leaseMs`. */
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
 * Memory stays flat whatever the number of rows. From the start, every `heartbeatMs`, renews
 * the job's lease and records progress (CSV: line feeds so far, at most the row count); when
 * the renewal finds the job no longer this worker's, it stops at once (the stream into the blob
 * store is destroyed, so its temporary file goes; the query's connection is closed) and rejects
 * with {@link LeaseLostError}. Resolves with the rows written and the key.
 */
export async function writeExportFile(
  db: Knex,
  blobs: BlobStore,
  job: ExportJobRow,
  { heartbeatMs, leaseMs }: { heartbeatMs: number; leaseMs: number },
): Promise<{ rows: number; key: string }> {
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
    const { fields, latest } = await exportFields(db, job.project_id);
    const columns = exportColumns(fields, options);
    const header = exportHeader(columns, options);
    total = await countExportRows(db, job);
    await db('exports').where({ id: job.id }).update({ total_rows: total });
    if (lost) throw new LeaseLostError(job.id);
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
      file = counted;
      // An error on either side destroys the other, so neither promise hangs.
      await unlessLost(Promise.all([pipeline(copy, counted), blobs.putStream(key, counted)]));
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
      file = out;
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
      await unlessLost(Promise.all([producing, blobs.putStream(key, out)]));
      return { rows, key };
    }
    const writer = geoJsonWriter(header, columns);
    file = writer;
    // The cursor feeds the writer; the blob store drains it (an error on either side
    // destroys the other, so neither promise hangs).
    await unlessLost(Promise.all([pipeline(values, writer), blobs.putStream(key, writer)]));
    return { rows, key };
  } catch (err) {
    throw lost ? new LeaseLostError(job.id) : err;
  } finally {
    clearInterval(timer);
    await client.end().catch(() => undefined);
  }
}

/** The job's lease lapsed while this worker wrote it, and another worker (or the sweep) took it. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(exportId: string) {
    super(`export ${exportId}: this worker's lease lapsed and the job was taken over`);
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

/** Time added to another worker's remaining lease before trying to take the job over (ms). */
const LEASE_MARGIN_MS = 200;

type JobDeps = {
  db: Knex;
  blobs: BlobStore;
  logger: Logger;
  settings: ExportSettings;
  onOutbox?: () => void;
};

/**
 * Ends a job nobody works on as `failed` with `reason` and queues the requester's e-mail, in one
 * transaction (docs/reliability.md, "Exports"). Resolves with whether it did (false: finished,
 * missing, or held by a live worker, which ends it itself).
 */
export async function failAbandonedJob(deps: JobDeps, exportId: string, reason: string): Promise<boolean> {
  const failed = await deps.db.transaction(async (trx) => {
    const job = await failAbandonedExport(trx, exportId, reason);
    if (job) await notifyRequester(trx, deps.settings.publicUrl, job, 'failed', reason.slice(0, 500));
    return job !== undefined;
  });
  if (failed) deps.onOutbox?.();
  return failed;
}

/**
 * Runs one delivery of a job message (docs/reliability.md, "Exports"). Outcomes:
 * - job finished already: nothing (a duplicate message); unknown job: PermanentError;
 * - another worker's lease still runs (typically: the redelivery of a job whose worker was just
 *   killed): waits until that lease lapses, then tries once more; if it was renewed, the holder
 *   is alive and ends the job itself, so this delivery is dropped (acknowledged);
 * - nobody works on it but it was claimed `attempts.max` times already (each claim stopped
 *   short: the job kills its worker): `failed`, the requester told, no new attempt;
 * - written: `completed` with the file, its expiry and the requester's e-mail, in one transaction
 *   guarded by the claim number (a worker that lost the job to another drops its file);
 * - failed: back to `queued` and the error goes up (the consumer retries the message); on the
 *   last attempt (of the message, or of the job: `attempts.max` claims) `failed` with the reason
 *   and an e-mail, and a PermanentError goes up (the message is dead-lettered at once);
 * - the lease was lost meanwhile: nothing more (the job is another worker's).
 */
export async function runExportJob(
  deps: JobDeps,
  exportId: string,
  attempts: { last: boolean; max: number },
): Promise<void> {
  const { db, blobs, settings, logger } = deps;
  const claimOptions = { leaseMs: settings.leaseMs, maxAttempts: attempts.max };
  let claim = await claimExport(db, exportId, claimOptions);
  if (claim.kind === 'held') {
    await sleep(Math.min(claim.leaseLeftMs, settings.leaseMs) + LEASE_MARGIN_MS);
    claim = await claimExport(db, exportId, claimOptions);
  }
  if (claim.kind === 'missing') throw new PermanentError(`export ${exportId} does not exist`);
  if (claim.kind === 'finished') return;
  if (claim.kind === 'held') {
    logger.info('export held by a live worker; duplicate delivery dropped', { exportId });
    return;
  }
  if (claim.kind === 'exhausted') {
    const { attempts: n, error } = claim.job;
    const reason =
      `no attempt finished: ${n} attempts, each stopped before the end (its worker died or lost ` +
      `its lease)${error ? `; last error: ${error}` : ''}`;
    if (await failAbandonedJob(deps, exportId, reason)) logger.error('export failed', { exportId, reason });
    return;
  }
  const { job } = claim;
  const lastAttempt = attempts.last || job.attempts >= attempts.max;
  try {
    const { rows, key } = await writeExportFile(db, blobs, job, settings);
    const owned = await db.transaction(async (trx) => {
      const n = await trx('exports')
        .where({ id: job.id, status: 'running', attempts: job.attempts })
        .update({
          status: 'completed',
          rows_written: rows,
          total_rows: rows,
          blob_key: key,
          error: null,
          lease_until: null,
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
    logger.info('export completed', { exportId, rows, owned });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const owned = await db.transaction(async (trx) => {
      const n = await trx('exports')
        .where({ id: job.id, status: 'running', attempts: job.attempts })
        .update(
          lastAttempt
            ? { status: 'failed', error: reason.slice(0, 1000), finished_at: trx.fn.now(), lease_until: null }
            : { status: 'queued', error: reason.slice(0, 1000), lease_until: null },
        );
      if (n === 1 && lastAttempt)
        await notifyRequester(trx, settings.publicUrl, job, 'failed', reason.slice(0, 500));
      return n === 1;
    });
    if (!owned) {
      logger.warn('export lost to another worker; its attempt dropped', { exportId, reason });
      return;
    }
    if (!lastAttempt) throw err;
    deps.onOutbox?.();
    throw new PermanentError(reason);
  }
}

/** Dead-letter queue of the export worker (`<queue>.dlq`, as the consumer names it). */
export const EXPORT_DEAD_LETTERS = `${EXPORT_QUEUE}.dlq`;

/**
 * The export worker (docs/reliability.md, "Exports"): consumes `export.requested` from
 * `collection.exports` (prefetch 1); the message is acknowledged only when the delivery ended
 * (see {@link runExportJob}), so a worker killed mid-job leaves it to RabbitMQ to redeliver.
 * Retries with backoff (`retryDelaysMs`, default 1 s, 5 s, 30 s: 4 attempts in all), then the
 * DLQ. A second consumer drains the DLQ: each dead-lettered job that nobody works on ends
 * `failed` with the dead letter's `x-error` and the requester is told; a dead letter that is not
 * an export message goes on to `collection.exports.dlq.dlq`. Resolves once both consume.
 */
export async function startExportWorker(opts: {
  broker: Broker;
  db: Knex;
  blobs: BlobStore;
  logger: Logger;
  settings: ExportSettings;
  retryDelaysMs?: number[];
  onOutbox?: () => void;
}): Promise<{ close: () => Promise<void> }> {
  const delays = opts.retryDelaysMs ?? [1_000, 5_000, 30_000];
  const exportIdOf = (message: Envelope) => {
    const id = (message.data as { export_id?: unknown }).export_id;
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id))
      throw new PermanentError('export job without a valid export_id');
    return id;
  };
  const jobs = await startConsumer(opts.broker, {
    queue: EXPORT_QUEUE,
    bindings: [{ exchange: Exchanges.collection, pattern: EXPORT_REQUESTED }],
    logger: opts.logger,
    retryDelaysMs: delays,
    prefetch: 1,
    handler: async (message: Envelope, ctx) =>
      runExportJob(opts, exportIdOf(message), { last: ctx.attempt > delays.length, max: delays.length + 1 }),
  });
  const deadLetters = await startConsumer(opts.broker, {
    queue: EXPORT_DEAD_LETTERS,
    bindings: [],
    logger: opts.logger,
    retryDelaysMs: delays,
    prefetch: 10,
    handler: async (message: Envelope, ctx) => {
      const exportId = exportIdOf(message);
      const why = ctx.raw.properties.headers?.['x-error'];
      const reason = `the export could not be run: ${typeof why === 'string' && why ? why : 'unknown error'}`;
      if (await failAbandonedJob(opts, exportId, reason))
        opts.logger.error('dead-lettered export failed', { exportId, reason });
    },
  });
  return {
    close: async () => {
      await jobs.close();
      await deadLetters.close();
    },
  };
}

/**
 * The periodic sweep (every EXPORT_SWEEP_SECONDS, at most 30): deletes the files of completed
 * jobs past `expires_at` (the job keeps its row, marked expired), and puts `running` jobs whose
 * lease lapsed back in the queue with a new message (the case where no message is left to
 * redeliver), so no job stays `running`. Resolves with what it did.
 */
export async function sweepExports(
  db: Knex,
  blobs: BlobStore,
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
      .where('lease_until', '<', trx.fn.now())
      .forUpdate()
      .skipLocked()
      .select('id')) as Array<{ id: string }>;
    for (const s of stale) {
      await trx('exports').where({ id: s.id }).update({
        status: 'queued',
        lease_until: null,
        error: 'the worker stopped responding; the job was restarted',
      });
      await queueExport(trx, s.id);
    }
    return stale.length;
  });
  return { deleted: expired.length, requeued };
}
