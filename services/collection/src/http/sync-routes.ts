import { toJsonSchema, type AnyRouteSpec } from '@fieldhouse/http';
import { joiErrors, validate } from '@fieldhouse/problem';
import { problems } from '../domain/problems.ts';
import {
  assertSyncBatchSize,
  MAX_SYNC_ITEMS,
  syncSubmissions,
  type ParsedSyncItem,
  type SyncItem,
} from '../domain/submission-sync.ts';
import type { CollectionContext } from '../domain/context.ts';
import { route } from './declare.ts';
import {
  syncBatchBody,
  syncItemSchema,
  syncRequestDocumented,
  syncResponse,
  syncResultBody,
} from './submission-schemas.ts';

/** Parses one item on its own: a bad item is refused (its `rejected` result), never the batch. */
function parseSyncItem(raw: unknown): ParsedSyncItem {
  const localId =
    typeof (raw as { local_id?: unknown })?.local_id === 'string'
      ? (raw as { local_id: string }).local_id
      : null;
  const { value, error } = syncItemSchema.validate(raw ?? null, {
    convert: false,
    abortEarly: false,
    stripUnknown: true,
  });
  if (error || !value)
    return {
      localId,
      refused: problems.validationFailed({
        errors: error ? joiErrors(error) : { item: ['An item must be an object.'] },
      }),
    };
  return { item: value as SyncItem };
}

/**
 * POST /sync: offline synchronisation (spec 2.1 "Synchronisation request", 4.1). Signed-in
 * callers only (401); more than {@link MAX_SYNC_ITEMS} items 413 before anything else; a bad
 * envelope 422; then one result per item, in order.
 */
const syncRoute = route({
  method: 'post',
  path: '/api/v1/sync',
  operationId: 'syncSubmissions',
  summary: `Offline synchronisation: a batch of at most ${MAX_SYNC_ITEMS} items, each with its own result`,
  description:
    'Each item is identified by (caller, device_id, local_id) and names its project through form_version_id. ' +
    'Same client_updated_at as stored: unchanged; older: conflict with the server version; newer: updated ' +
    '(when the submission may still be edited). Items are validated like submissions. docs/collection.md, ' +
    '"Offline synchronisation".',
  tags: ['Sync'],
  requestContent: { 'application/json': toJsonSchema(syncRequestDocumented, {}) },
  responses: {
    200: {
      description: 'One result per item, in order, and the server time for the next sync',
      body: syncResponse,
    },
  },
  problems: {
    413: `More than ${MAX_SYNC_ITEMS} items (\`sync_batch_too_large\`, with \`max_items\`)`,
    422: 'Bad envelope (device_id, submissions)',
  },
  handler: async (_input, ctx, req) => {
    const { deviceId, serverTime, results } = await syncSubmissions(ctx, {
      actor: req.caller,
      readBatch: () => {
        const raw = req.body as { submissions?: unknown } | undefined;
        if (Array.isArray(raw?.submissions)) assertSyncBatchSize(raw.submissions.length);
        const batch = validate(syncBatchBody, raw);
        return { deviceId: batch.device_id, items: batch.submissions.map(parseSyncItem) };
      },
      ...(typeof req.headers['accept-language'] === 'string'
        ? { acceptLanguage: req.headers['accept-language'] }
        : {}),
    });
    return {
      body: {
        data: {
          server_time: serverTime.toISOString(),
          device_id: deviceId,
          results: results.map(syncResultBody),
        },
      },
    };
  },
});

/** Offline synchronisation (spec 2.1, 4.1 `POST /sync`). */
export const syncRoutes: AnyRouteSpec<CollectionContext>[] = [syncRoute];
