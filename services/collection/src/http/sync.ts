import { Router, type Request } from 'express';
import Joi from 'joi';
import { idSchema } from '@fieldhouse/http';
import type { Logger } from '@fieldhouse/logger';
import {
  joiErrors,
  payloadTooLarge,
  ProblemError,
  validate,
  validationFailed,
  type FieldErrors,
} from '@fieldhouse/problem';
import type { Role } from '../domain/roles.ts';
import { searchTextOf } from '../domain/submission-validation.ts';
import { checkTransition, type Status } from '../domain/transitions.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import { findVersion, listFields } from '../data/versions.ts';
import { findSubmission, submissionJson, updateSubmission } from '../data/submissions.ts';
import { advanceSyncItem, findSyncItem, insertSyncItem, type SyncItemRow } from '../data/sync-items.ts';
import { openToNonMembers, userIdOf } from './access.ts';
import type { CollectionContext } from './context.ts';
import { intakePhotos } from './photo-intake.ts';
import {
  checkEntries,
  coords,
  createSubmission,
  photoTransaction,
  storePhotos,
  type PublishedCache,
} from './submission-create.ts';

/** Largest batch of `POST /sync` (items); more is refused whole with 413 `sync_batch_too_large`. */
export const MAX_SYNC_ITEMS = 500;

/** Items of one batch processed at once (each holds at most one pooled connection). */
const SYNC_CONCURRENCY = 4;

const utc = Joi.string()
  .isoDate()
  .pattern(/(Z|[+-]00:?00)$/, 'UTC (ending in Z)');

/** Body of spec 2.1 "Synchronisation request"; the items are validated one by one. */
const batchSchema = Joi.object({
  device_id: Joi.string().trim().min(1).max(200).required(),
  submissions: Joi.array().required(),
});

/**
 * One item: spec 2.1's `local_id`, `data`, `client_updated_at`, plus what the submission body
 * has (`form_version_id`, which names the project; coordinates, `status`, `consent`).
 */
const itemSchema = Joi.object({
  local_id: Joi.string().min(1).max(200).required(),
  form_version_id: idSchema().required(),
  client_updated_at: utc.required(),
  data: Joi.array().max(2000).required(),
  status: Joi.string().valid('draft', 'submitted').default('submitted'),
  consent: Joi.boolean(),
  ...coords,
});

interface SyncItem {
  local_id: string;
  form_version_id: number;
  client_updated_at: string;
  data: unknown[];
  status: 'draft' | 'submitted';
  consent?: boolean;
  latitude?: number | null;
  longitude?: number | null;
  altitude?: number | null;
  precision?: number | null;
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
  server?: ReturnType<typeof submissionJson>;
}

const rejected = (localId: string | null, id: number | null, err: ProblemError): SyncResult => ({
  local_id: localId,
  id,
  status: 'rejected',
  code: err.code ?? 'rejected',
  message: err.message,
  errors: err.errors ?? { item: [err.message] },
});

const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';

/** Offline synchronisation (spec 2.1, 4.1 `POST /sync`). */
export function syncRoutes(ctx: CollectionContext): Router {
  const r = Router();
  const cache: PublishedCache = new Map();

  /**
   * POST /sync `{device_id, submissions: [{local_id, form_version_id, client_updated_at, data,
   * status?, consent?, latitude?...}]}` → 200 `{data: {server_time, device_id, results}}`, one
   * result per item in order. Signed-in callers only (401). Bad envelope 422; more than
   * {@link MAX_SYNC_ITEMS} items 413. An item never fails the batch: each runs in its own
   * statements/transaction and a refusal is its `rejected` result.
   */
  r.post('/api/v1/sync', async (req, res) => {
    const userId = userIdOf(req);
    const raw = req.body as { submissions?: unknown };
    if (Array.isArray(raw?.submissions) && raw.submissions.length > MAX_SYNC_ITEMS)
      throw payloadTooLarge(
        `A sync batch holds at most ${MAX_SYNC_ITEMS} items (got ${raw.submissions.length}); send the rest in another batch.`,
        { code: 'sync_batch_too_large', extensions: { max_items: MAX_SYNC_ITEMS } },
      );
    const batch = validate(batchSchema, raw) as { device_id: string; submissions: unknown[] };
    const serverTime = new Date();
    const projects = new Map<number, { project: ProjectRow; role: Role | null } | null>();
    // Items run SYNC_CONCURRENCY at a time, each on its own connection and transaction; the
    // results keep the order of the items. Two items with the same local_id in one batch are
    // settled by the sync_items primary key (the second compares against the first).
    const results: SyncResult[] = new Array<SyncResult>(batch.submissions.length);
    let next = 0;
    const lane = async () => {
      while (next < batch.submissions.length) {
        const i = next++;
        results[i] = await syncOne(ctx, cache, projects, req, userId, batch.device_id, batch.submissions[i]);
      }
    };
    await Promise.all(Array.from({ length: SYNC_CONCURRENCY }, lane));
    res.json({ data: { server_time: serverTime.toISOString(), device_id: batch.device_id, results } });
  });
  return r;
}

/** Loads a project once per batch, with the caller's role (null: open to non-members). */
async function projectOf(
  ctx: CollectionContext,
  projects: Map<number, { project: ProjectRow; role: Role | null } | null>,
  req: Request,
  projectId: number,
) {
  if (!projects.has(projectId)) {
    const found = await ctx.findProjectWithRole(projectId, req.caller.userId);
    const role = (found?.role ?? null) as Role | null;
    projects.set(
      projectId,
      found && (role || openToNonMembers(found.project, req)) ? { project: found.project, role } : null,
    );
  }
  return projects.get(projectId) ?? null;
}

async function syncOne(
  ctx: CollectionContext,
  cache: PublishedCache,
  projects: Map<number, { project: ProjectRow; role: Role | null } | null>,
  req: Request,
  userId: number,
  deviceId: string,
  raw: unknown,
): Promise<SyncResult> {
  const rawLocalId =
    typeof (raw as { local_id?: unknown })?.local_id === 'string'
      ? (raw as { local_id: string }).local_id
      : null;
  const { value, error } = itemSchema.validate(raw ?? null, {
    convert: false,
    abortEarly: false,
    stripUnknown: true,
  });
  if (error || !value)
    return rejected(
      rawLocalId,
      null,
      validationFailed(error ? joiErrors(error) : { item: ['An item must be an object.'] }),
    );
  const item = value as SyncItem;
  const clientAt = new Date(item.client_updated_at);
  try {
    for (let attempt = 0; ; attempt++) {
      const existing = await findSyncItem(ctx.db, userId, deviceId, item.local_id);
      if (existing) return await applyExisting(ctx, req, userId, existing, item, clientAt, ctx.logger);
      const version = await findVersion(ctx.db, item.form_version_id);
      const access = version ? await projectOf(ctx, projects, req, version.project_id) : null;
      if (!version || !access)
        return rejected(
          item.local_id,
          null,
          validationFailed({ form_version_id: ['Unknown form version.'] }, { code: 'unknown_form_version' }),
        );
      const { local_id: _l, client_updated_at: _c, ...submission } = item;
      try {
        const s = await createSubmission(
          ctx,
          cache,
          req,
          access.project,
          access.role,
          submission,
          new Map(),
          (trx, created) =>
            insertSyncItem(trx, {
              user_id: userId,
              device_id: deviceId,
              local_id: item.local_id,
              project_id: access.project.id,
              submission_id: created.id,
              client_updated_at: clientAt,
            }),
        );
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
    return rejected(
      item.local_id,
      null,
      new ProblemError(500, 'This item could not be stored; send it again.', { code: 'item_failed' }),
    );
  }
}

/**
 * An item already synchronised: same `client_updated_at` → `unchanged`; older → `conflict`
 * with the server's version; newer → `updated` when the submission may still be edited
 * (draft, requires_correction, or submitted with `allow_edits`), else `rejected`.
 */
async function applyExisting(
  ctx: CollectionContext,
  req: Request,
  userId: number,
  existing: SyncItemRow,
  item: SyncItem,
  clientAt: Date,
  logger: Logger,
): Promise<SyncResult> {
  const s = await findSubmission(ctx.db, existing.project_id, existing.submission_id);
  if (!s)
    throw validationFailed({ local_id: ['The submission of this item no longer exists.'] }, { code: 'gone' });
  const base = { local_id: item.local_id, id: s.id };
  const stored = existing.client_updated_at.getTime();
  if (clientAt.getTime() === stored)
    return { ...base, status: 'unchanged', client_updated_at: existing.client_updated_at.toISOString() };
  if (clientAt.getTime() < stored)
    return {
      ...base,
      status: 'conflict',
      code: 'stale_item',
      message: 'The server holds a newer version of this item.',
      client_updated_at: existing.client_updated_at.toISOString(),
      server: submissionJson(s),
    };
  try {
    if (item.form_version_id !== s.form_version_id)
      throw validationFailed({ form_version_id: ['An item keeps the form version it was created with.'] });
    const project = (await ctx.findProjectWithRole(existing.project_id, userId))?.project;
    const editable =
      s.status === 'draft' ||
      s.status === 'requires_correction' ||
      (s.status === 'submitted' && project !== undefined && settingsOf(project).allow_edits);
    if (!editable)
      throw validationFailed(
        {
          local_id: [
            `The data of a ${s.status} submission cannot be changed${s.status === 'submitted' ? ' (this project does not allow edits)' : ''}.`,
          ],
        },
        { code: 'edits_not_allowed' },
      );
    const newStatus: Status | undefined =
      item.status !== s.status && !(item.status === 'draft' && s.status === 'requires_correction')
        ? item.status
        : undefined;
    if (newStatus && checkTransition(s.status, newStatus, ['collector']) === 'forbidden')
      throw validationFailed({
        status: [`You may not move this submission from ${s.status} to ${newStatus}.`],
      });
    const finalStatus = newStatus ?? s.status;
    const fields = await listFields(ctx.db, s.form_version_id);
    const kept = new Set(
      s.data
        .filter((e) => e.type === 'photo' && e.value && typeof e.value === 'object')
        .map((e) => (e.value as { photo_id: string }).photo_id),
    );
    const checked = checkEntries(item.data, fields, new Map(), finalStatus === 'submitted', kept);
    const { entries, photos } = await intakePhotos(checked, new Map(), s.project_id, ctx.photoMaxBytes);
    const patch: Partial<Record<'latitude' | 'longitude' | 'altitude' | 'precision', number | null>> = {};
    for (const k of ['latitude', 'longitude', 'altitude', 'precision'] as const)
      if (k in item) patch[k] = item[k] ?? null;
    const updated = await photoTransaction(ctx, photos, async (trx) => {
      if (!(await advanceSyncItem(trx, existing, clientAt))) return null;
      const row = await updateSubmission(trx, s, {
        ...(newStatus ? { status: newStatus } : {}),
        data: entries,
        search_text: searchTextOf(entries, fields),
        coords: patch,
        userId,
        comment: null,
      });
      await storePhotos(ctx, trx, s.id, photos);
      return row;
    });
    if (!updated) {
      logger.info('sync item overtaken by a concurrent newer version', { localId: item.local_id });
      const again = await findSyncItem(ctx.db, userId, existing.device_id, existing.local_id);
      return applyExisting(ctx, req, userId, again ?? existing, item, clientAt, logger);
    }
    return { ...base, status: 'updated', client_updated_at: clientAt.toISOString() };
  } catch (err) {
    if (err instanceof ProblemError) return rejected(item.local_id, s.id, err);
    throw err;
  }
}
