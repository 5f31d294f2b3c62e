import type { InTransaction, OutboxWriter } from '@fieldhouse/messaging';
import {
  completeExportAttempt,
  endFailedExportAttempt,
  failAbandonedExport,
  requeueStaleExports,
  type ExportJobRow,
} from '../data/exports.ts';
import { findProject } from '../data/projects.ts';
import type { Tx } from '../data/tx.ts';
import { findUserById } from '../data/users.ts';
import { changes } from './changes.ts';
import { exportEmail } from './export-email.ts';

/** What the export worker's use cases need: the outbox-bound transaction and the public address. */
export interface ExportJobContext {
  /** Runs a use case and its outbox messages in one transaction (`inTransactionWith(db, 'outbox', kick)`). */
  inTransaction: InTransaction;
  /**
   * Public address of the gateway (`PUBLIC_URL`): the download link in the requester's e-mail
   * is absolute with it.
   */
  publicUrl: string;
}

/**
 * Queues the requester's e-mail about a finished or failed job (spec 6), in the job's
 * transaction: in the requester's language and time zone (domain/export-email.ts), with the
 * absolute download link (`<publicUrl>/api/v1/exports/<id>/download`) when it completed and the
 * project's exports page in the console. `detail`: the rows written (completed) or the error.
 */
async function notifyRequester(
  tx: Tx,
  outbox: OutboxWriter,
  publicUrl: string,
  job: ExportJobRow,
  outcome: 'completed' | 'failed',
  detail: number | string,
): Promise<void> {
  const requester = await findUserById(tx, job.requested_by);
  if (!requester) return;
  const name = (await findProject(tx, job.project_id))?.name ?? `#${job.project_id}`;
  const email = exportEmail(
    requester,
    {
      exportId: job.id,
      projectId: job.project_id,
      projectName: name,
      format: job.format,
      requestedAt: new Date(job.created_at),
      outcome,
      ...(typeof detail === 'number' ? { rows: detail } : { error: detail }),
    },
    publicUrl,
  );
  await outbox.add(changes.source, changes.envelope('email.requested', email));
}

/**
 * A job's file is written: the job ends `completed` (its file, rows and expiry after `ttlHours`)
 * and its requester is e-mailed, in one transaction guarded by the claim number.
 * @returns false when another worker took the job over (the caller drops its file).
 */
export function completeExport(
  ctx: ExportJobContext,
  job: ExportJobRow,
  done: { rows: number; key: string; ttlHours: number },
): Promise<boolean> {
  return ctx.inTransaction(async (tx, outbox) => {
    const owned = await completeExportAttempt(tx, job, done);
    if (owned) await notifyRequester(tx, outbox, ctx.publicUrl, job, 'completed', done.rows);
    return owned;
  });
}

/**
 * An attempt of a job failed with `reason`: on the last attempt the job ends `failed` and its
 * requester is e-mailed, else it goes back to `queued`; in one transaction guarded by the claim.
 * @returns false when another worker took the job over.
 */
export function failExportAttempt(
  ctx: ExportJobContext,
  job: ExportJobRow,
  failure: { reason: string; last: boolean },
): Promise<boolean> {
  return ctx.inTransaction(async (tx, outbox) => {
    const owned = await endFailedExportAttempt(tx, job, failure);
    if (owned && failure.last)
      await notifyRequester(tx, outbox, ctx.publicUrl, job, 'failed', failure.reason.slice(0, 500));
    return owned;
  });
}

/**
 * Ends a job nobody works on as `failed` with `reason` and queues the requester's e-mail, in one
 * transaction (docs/reliability.md, "Exports").
 * @returns whether it did (false: finished, missing, or held by a live worker, which ends it).
 */
export function failAbandonedJob(ctx: ExportJobContext, exportId: string, reason: string): Promise<boolean> {
  return ctx.inTransaction(async (tx, outbox) => {
    const job = await failAbandonedExport(tx, exportId, reason);
    if (job) await notifyRequester(tx, outbox, ctx.publicUrl, job, 'failed', reason.slice(0, 500));
    return job !== undefined;
  });
}

/**
 * Puts the `running` jobs whose lease lapsed back in the queue, each with a new
 * `export.requested` message, in one transaction (the sweep; docs/reliability.md, "Exports").
 * @returns how many.
 */
export function requeueStaleJobs(ctx: Pick<ExportJobContext, 'inTransaction'>): Promise<number> {
  return ctx.inTransaction(async (tx, outbox) => {
    const ids = await requeueStaleExports(tx);
    for (const id of ids)
      await outbox.add(changes.source, changes.envelope('export.requested', { export_id: id }));
    return ids.length;
  });
}
