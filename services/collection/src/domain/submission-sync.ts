import { isProblem, ProblemError, type FieldErrors } from '@fieldhouse/problem';
import { findVersion } from '../data/versions.ts';
import { isUniqueViolation } from '../data/tx.ts';
import { findSubmission, type SubmissionRow } from '../data/submissions.ts';
import { advanceSyncItem, findSyncItem, insertSyncItem, type SyncItemRow } from '../data/sync-items.ts';
import { requireAccess, userIdOf } from './access.ts';
import { problems, syncItemFailed } from './problems.ts';
import { assertAccepting, storeSubmission, type SubmissionValues } from './submission-create.ts';
import type { ProjectAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { updateSubmission, type SubmissionChange } from './submission-update.ts';
import type { Status } from './transitions.ts';

/** Largest batch of `POST /sync` (items); more is refused whole with 413 `sync_batch_too_large`. */
export const MAX_SYNC_ITEMS = 500;

/** Items of one batch processed at once (each holds at most one pooled connection). */
const SYNC_CONCURRENCY = 4;

/**
 * One item of spec 2.1's synchronisation request, parsed: `local_id`, `client_updated_at`
 * (UTC ISO 8601), and the values of a new submission (`form_version_id` names the project).
 */
export interface SyncItem extends SubmissionValues {
  local_id: string;
  client_updated_at: string;
}

/** An item as the route parsed it: valid, or refused by its schema (a `rejected` result). */
export type ParsedSyncItem = { item: SyncItem } | { refused: ProblemError; localId: string | null };

/** Command of {@link syncSubmissions}. */
export interface SyncSubmissions {
  actor: Actor;
  /**
   * Reads the batch (the route parses its body there, refusing more than
   * {@link MAX_SYNC_ITEMS} items first): called once the actor is known to be signed in.
   */
  readBatch: () => { deviceId: string; items: ParsedSyncItem[] };
  /** The request's `Accept-Language`: the language of the form's messages. */
  acceptLanguage?: string;
}

/** Result of one item (docs/collection.md, "Offline synchronisation"). */
export interface SyncResult {
  local_id: string | null;
  /** Server id of the submission (null when rejected before one existed). */
  id: number | null;
  status: 'created' | 'updated' | 'unchanged' | 'conflict' | 'rejected';
  /** `client_updated_at` the server holds for this item after the sync. */
  client_updated_at?: string;
  code?: string;
  message?: string;
  errors?: FieldErrors;
  /** On a conflict: the server's version of the submission. */
  server?: SubmissionRow;
}

/**
 * Refuses a batch of more than {@link MAX_SYNC_ITEMS} items, before anything else is read.
 * @throws ProblemError 413 `sync_batch_too_large` with `max_items`.
 */
export function assertSyncBatchSize(items: number): void {
  if (items > MAX_SYNC_ITEMS) throw problems.syncBatchTooLarge({ items, maxItems: MAX_SYNC_ITEMS });
}

/** What an item's `rejected` result says: a problem's code, message and field errors. */
type Refusal = Pick<ProblemError, 'code' | 'message' | 'errors'>;

const rejected = (localId: string | null, id: number | null, err: Refusal): SyncResult => ({
  local_id: localId,
  id,
  status: 'rejected',
  code: err.code ?? 'rejected',
  message: err.message,
  errors: err.errors ?? { item: [err.message] },
});

/**
 * A refusal of the update as an item reports it: what the API answers with 403 (edits not
 * allowed, a transition the collector may not make) names the item's member (`local_id`, or
 * `status` with the code `validation_failed`).
 */
function itemRefusal(err: ProblemError): Refusal {
  if (err.code === problems.editsNotAllowed.code)
    return { code: err.code, message: err.message, errors: { local_id: [err.message] } };
  if (err.code === problems.forbidden.code)
    return problems.validationFailed({ errors: { status: [err.message] } });
  return err;
}

/** What one batch shares: the actor, the device and the projects looked up so far. */
interface Batch {
  ctx: CollectionContext;
  userId: number;
  deviceId: string;
  projects: Map<number, ProjectAccess | null>;
  /** The request's `Accept-Language` ({ acceptLanguage } or nothing). */
  language: { acceptLanguage?: string };
}

/**
 * Offline synchronisation (spec 2.1 "Synchronisation request"; docs/collection.md, "Offline
 * synchronisation"). Each item is identified by (actor, `device_id`, `local_id`):
 * - new: created as `POST /projects/{project_id}/submissions` would (same rules), its identity
 *   recorded in the same transaction: `created`;
 * - known, same `client_updated_at`: `unchanged`; older: `conflict` with the server's
 *   version; newer: `updated` through the one submission update, when the submission may
 *   still be edited.
 * An item never fails the batch: each runs in its own statements/transaction, a refusal is
 * its `rejected` result (`code`, `message`, `errors`). Items run {@link SYNC_CONCURRENCY} at a
 * time; results keep the order of the items. Two items with the same `local_id` in one batch
 * are settled by the `sync_items` primary key (the second compares against the first).
 * Each item's project is checked as `POST /projects/{project_id}/submissions` checks it
 * (`project.open` of {@link requireAccess}, once per project and batch).
 * @returns the device, the server time (taken before any item) and one result per item.
 * @throws ProblemError 401 anonymous; 413 `sync_batch_too_large` above {@link MAX_SYNC_ITEMS}
 *   items; whatever `readBatch` throws (422).
 */
export async function syncSubmissions(
  ctx: CollectionContext,
  cmd: SyncSubmissions,
): Promise<{ deviceId: string; serverTime: Date; results: SyncResult[] }> {
  const userId = userIdOf(cmd.actor);
  const { deviceId, items } = cmd.readBatch();
  assertSyncBatchSize(items.length);
  const serverTime = new Date();
  const batch: Batch = {
    ctx,
    userId,
    deviceId,
    projects: new Map(),
    language: cmd.acceptLanguage ? { acceptLanguage: cmd.acceptLanguage } : {},
  };
  const results: SyncResult[] = new Array<SyncResult>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      const parsed = items[i]!;
      results[i] =
        'item' in parsed ? await syncOne(batch, parsed.item) : rejected(parsed.localId, null, parsed.refused);
    }
  };
  await Promise.all(Array.from({ length: SYNC_CONCURRENCY }, lane));
  return { deviceId, serverTime, results };
}

/**
 * A project once per batch with the actor's role (null: open to non-members), or null when
 * the actor may not reach it (`project.open` of {@link requireAccess} answered 404).
 */
async function projectOf(batch: Batch, projectId: number): Promise<ProjectAccess | null> {
  if (!batch.projects.has(projectId)) {
    const access = await requireAccess(batch.ctx, {
      actor: { userId: batch.userId },
      permission: 'project.open',
      projectId,
    }).catch((err: unknown) => {
      if (isProblem(err, problems.notFound)) return null;
      throw err;
    });
    batch.projects.set(projectId, access);
  }
  return batch.projects.get(projectId) ?? null;
}

async function syncOne(batch: Batch, item: SyncItem): Promise<SyncResult> {
  const { ctx, userId, deviceId } = batch;
  const clientAt = new Date(item.client_updated_at);
  try {
    for (let attempt = 0; ; attempt++) {
      const existing = await findSyncItem(ctx.db, userId, deviceId, item.local_id);
      if (existing) return await applyExisting(batch, existing, item, clientAt);
      const version = await findVersion(ctx.db, item.form_version_id);
      const access = version ? await projectOf(batch, version.project_id) : null;
      if (!version || !access) return rejected(item.local_id, null, problems.unknownFormVersion());
      const { local_id: _l, client_updated_at: _c, ...values } = item;
      try {
        const actor = { userId };
        const s = await storeSubmission(ctx, {
          access,
          actor,
          settings: assertAccepting(access, actor),
          values,
          photos: new Map(),
          ...batch.language,
          afterInsert: (trx, created) =>
            insertSyncItem(trx, {
              user_id: userId,
              device_id: deviceId,
              local_id: item.local_id,
              project_id: access.project.id,
              submission_id: created.id,
              client_updated_at: clientAt,
            }),
        });
        return {
          local_id: item.local_id,
          id: s.id,
          status: 'created',
          client_updated_at: clientAt.toISOString(),
        };
      } catch (err) {
        // The same item sent concurrently: the other request created it; compare against it.
        if (isUniqueViolation(err) && attempt === 0) continue;
        throw err;
      }
    }
  } catch (err) {
    if (err instanceof ProblemError) return rejected(item.local_id, null, err);
    ctx.logger.error('sync item failed', { err, localId: item.local_id });
    return rejected(item.local_id, null, syncItemFailed());
  }
}

/** The coordinates an item carries (absent ones are left as they are). */
function coordsOf(item: SyncItem): SubmissionChange {
  const change: SubmissionChange = {};
  for (const k of ['latitude', 'longitude', 'altitude', 'precision'] as const)
    if (k in item) change[k] = item[k] ?? null;
  return change;
}

/**
 * An item already synchronised: same `client_updated_at` → `unchanged`; older → `conflict`
 * with the server's version; newer → `updated` when the submission may still be edited
 * (draft, requires_correction, or submitted with `allow_edits`), else `rejected`. An item
 * asking for `draft` of a submission sent back for correction keeps its status.
 */
async function applyExisting(
  batch: Batch,
  existing: SyncItemRow,
  item: SyncItem,
  clientAt: Date,
): Promise<SyncResult> {
  const { ctx, userId } = batch;
  const s = await findSubmission(ctx.db, existing.project_id, existing.submission_id);
  const gone = () => problems.syncItemGone();
  if (!s) throw gone();
  const base = { local_id: item.local_id, id: s.id };
  const stored = existing.client_updated_at.getTime();
  if (clientAt.getTime() === stored)
    return { ...base, status: 'unchanged', client_updated_at: existing.client_updated_at.toISOString() };
  if (clientAt.getTime() < stored)
    return {
      ...base,
      status: 'conflict',
      code: problems.staleItem.code,
      message: problems.staleItem().message,
      client_updated_at: existing.client_updated_at.toISOString(),
      server: s,
    };
  try {
    if (item.form_version_id !== s.form_version_id)
      throw problems.validationFailed({
        errors: { form_version_id: ['An item keeps the form version it was created with.'] },
      });
    const project = (await ctx.findProjectWithRole(existing.project_id, userId))?.project;
    if (!project) throw gone();
    const status: Status | undefined =
      item.status === 'draft' && s.status === 'requires_correction' ? undefined : item.status;
    const updated = await updateSubmission(ctx, {
      submission: s,
      project,
      userId,
      role: null,
      change: { ...(status ? { status } : {}), data: item.data, ...coordsOf(item) },
      guard: (trx) => advanceSyncItem(trx, existing, clientAt),
      ...batch.language,
    });
    if (!updated) {
      ctx.logger.info('sync item overtaken by a concurrent newer version', { localId: item.local_id });
      const again = await findSyncItem(ctx.db, userId, existing.device_id, existing.local_id);
      return applyExisting(batch, again ?? existing, item, clientAt);
    }
    return { ...base, status: 'updated', client_updated_at: clientAt.toISOString() };
  } catch (err) {
    if (err instanceof ProblemError) return rejected(item.local_id, s.id, itemRefusal(err));
    throw err;
  }
}
