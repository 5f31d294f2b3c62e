import { isUuid } from '@fieldhouse/http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { Exchanges, type Envelope } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import {
  inTransactionWith,
  PermanentError,
  startConsumer,
  writeOutbox,
  type Broker,
} from '@fieldhouse/messaging';
import type { BlobStore } from '../blob/blob-store.ts';
import { claimExport } from '../data/exports.ts';
import {
  completeExport,
  failAbandonedJob,
  failExportAttempt,
  requeueStaleJobs,
  type ExportJobContext,
} from '../domain/export-jobs.ts';
import { EXPORT_REQUESTED } from '../domain/exports.ts';
import { changes } from '../domain/changes.ts';
import { writeExportFile } from './export-file.ts';

/** Routing key of an export job (declared with the use case that sends it, domain/exports.ts). */
export { EXPORT_REQUESTED };

/** Queue of the export worker. */
export const EXPORT_QUEUE = 'collection.exports';

/** Queues an export job: its message goes through the outbox, in the caller's transaction. */
export async function queueExport(trx: Knex | Knex.Transaction, exportId: string): Promise<void> {
  await writeOutbox(
    trx,
    'outbox',
    changes.source,
    changes.envelope('export.requested', { export_id: exportId }),
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
  /**
   * Public address of the gateway (`PUBLIC_URL`): the download link in the requester's e-mail
   * and the photo URLs in CSV, xlsx and GeoJSON files are absolute with it.
   */
  publicUrl: string;
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

/** The context of the export use cases (domain/export-jobs.ts) for a worker's dependencies. */
const jobContext = (deps: Pick<JobDeps, 'db' | 'settings' | 'onOutbox'>): ExportJobContext => ({
  inTransaction: inTransactionWith(deps.db, 'outbox', deps.onOutbox),
  publicUrl: deps.settings.publicUrl,
});

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
    if (await failAbandonedJob(jobContext(deps), exportId, reason))
      logger.error('export failed', { exportId, reason });
    return;
  }
  const { job } = claim;
  const lastAttempt = attempts.last || job.attempts >= attempts.max;
  try {
    const { rows, key, missingPhotos } = await writeExportFile(db, blobs, job, settings);
    if (missingPhotos?.length)
      logger.warn('export: photos named by its rows were missing from the blob store, left out of the zip', {
        exportId,
        count: missingPhotos.length,
        paths: missingPhotos.slice(0, 20),
      });
    const owned = await completeExport(jobContext(deps), job, { rows, key, ttlHours: settings.ttlHours });
    if (!owned) await blobs.delete(key);
    logger.info('export completed', { exportId, rows, owned });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const owned = await failExportAttempt(jobContext(deps), job, { reason, last: lastAttempt });
    if (!owned) {
      logger.warn('export lost to another worker; its attempt dropped', { exportId, reason });
      return;
    }
    if (!lastAttempt) throw err;
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
    if (!isUuid(id)) throw new PermanentError('export job without a valid export_id');
    return id;
  };
  const jobs = await startConsumer(opts.broker, {
    queue: EXPORT_QUEUE,
    bindings: [{ exchange: Exchanges.collection, pattern: EXPORT_REQUESTED }],
    logger: opts.logger,
    retryDelaysMs: delays,
    prefetch: 1,
    // An export may run for minutes over a million rows; its job holds a lease in PostgreSQL.
    handlerTimeoutMs: 0,
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
      if (await failAbandonedJob(jobContext(opts), exportId, reason))
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
  const requeued = await requeueStaleJobs({ inTransaction: inTransactionWith(db, 'outbox') });
  return { deleted: expired.length, requeued };
}
