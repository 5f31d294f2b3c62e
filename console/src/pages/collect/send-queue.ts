import { call, collectionApi } from '../../api/client.ts';
import { ApiError } from '../../api/problem.ts';
import type { Field, SyncResult } from '../collection/types.ts';
import { fieldOfErrorKey } from './answers.ts';
import { deviceId, putQueueItem, type QueueItem, type QueueStatus } from './offline-store.ts';

/** Bytes of JSON per sync request: under the service's 1 MB body limit (docs/collection.md). */
const BATCH_BYTES = 800_000;
/** Items per sync request: the service takes up to 500. */
const BATCH_ITEMS = 100;

/** What the page needs to know after a send. */
export interface SendReport {
  /** Items the service answered for. */
  answered: number;
  /** Set when nothing could be sent: no network (status 0) or signed out (401). */
  stoppedBy?: ApiError;
}

const STATUS: Record<SyncResult['status'], QueueStatus> = {
  created: 'sent',
  updated: 'sent',
  unchanged: 'duplicate',
  conflict: 'conflict',
  rejected: 'refused',
};

/**
 * A refusal's `errors` keyed by field uuid where the key names an entry (`data.3.value` → the
 * field of entry 3), so the form shows each message under its field; other keys are kept.
 */
function errorsByField(item: QueueItem, errors: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors ?? {})) {
    const text = Array.isArray(messages) ? messages.map(String).join(' ') : String(messages);
    out[fieldOfErrorKey(key, item.entries) ?? key] = text;
  }
  return out;
}

/** Batches of pending items within {@link BATCH_BYTES} and {@link BATCH_ITEMS}. */
function batches(items: QueueItem[]): QueueItem[][] {
  const out: QueueItem[][] = [];
  let current: QueueItem[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item.entries).length + 200;
    if (current.length && (bytes + size > BATCH_BYTES || current.length >= BATCH_ITEMS)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * Sends a signed-in collector's pending items through `POST /api/v1/sync` (spec 2.1) with this
 * browser's `device_id` and each item's `local_id` and `client_updated_at`: the service creates
 * each item once, so a batch re-sent after a lost answer creates nothing twice (`unchanged` →
 * "duplicate"). Each item's answer is written to the queue as it comes. A network failure or a
 * 401 stops the send and leaves the rest pending.
 */
export async function sendBySync(items: QueueItem[]): Promise<SendReport> {
  const device_id = await deviceId();
  let answered = 0;
  for (const batch of batches(items)) {
    let results: SyncResult[];
    try {
      const body = {
        device_id,
        submissions: batch.map((i) => ({
          local_id: i.local_id,
          form_version_id: i.form_version_id,
          data: i.entries,
          client_updated_at: i.client_updated_at,
          ...(i.consent !== null ? { consent: i.consent } : {}),
        })),
      };
      results = (await call(collectionApi.POST('/api/v1/sync', { body }))).data.results;
    } catch (err) {
      if (
        err instanceof ApiError &&
        (err.status === 0 || err.status === 401 || err.status >= 500 || err.status === 429)
      )
        return { answered, stoppedBy: err };
      // The whole batch refused (413, 422): say so on each item, keep them.
      for (const item of batch)
        await putQueueItem({
          ...item,
          status: 'refused',
          message: err instanceof Error ? err.message : String(err),
        });
      answered += batch.length;
      continue;
    }
    for (const result of results) {
      const item = batch.find((i) => i.local_id === result.local_id);
      if (!item) continue;
      await putQueueItem({
        ...item,
        status: STATUS[result.status],
        server_id: result.id,
        message: result.message,
        errors: errorsByField(item, result.errors),
      });
      answered++;
    }
  }
  return { answered };
}

/**
 * Sends an anonymous collector's pending items (projects published for `public` access) one by
 * one with `POST /api/v1/projects/{id}/submissions`, since `/sync` needs a signed-in user. The
 * service has no idempotency key for this route: an answer lost on the way back can leave a
 * submission that is sent again (docs/console.md, "The web form").
 */
export async function sendOneByOne(items: QueueItem[]): Promise<SendReport> {
  let answered = 0;
  for (const item of items) {
    try {
      const created = await call(
        collectionApi.POST('/api/v1/projects/{project_id}/submissions', {
          params: { path: { project_id: String(item.project_id) } },
          body: {
            form_version_id: item.form_version_id,
            data: item.entries,
            ...(item.consent !== null ? { consent: item.consent } : {}),
          },
        }),
      );
      await putQueueItem({
        ...item,
        status: 'sent',
        server_id: created.data.id,
        message: undefined,
        errors: {},
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500 || err.status === 429)
        return { answered, stoppedBy: err instanceof ApiError ? err : undefined };
      await putQueueItem({
        ...item,
        status: 'refused',
        message: err.problem.detail ?? err.message,
        errors: errorsByField(item, err.problem.errors),
      });
    }
    answered++;
  }
  return { answered };
}

/** A refusal's messages with field labels: "Age in months: must be at most 59". */
export function describeErrors(
  errors: Record<string, string> | undefined,
  fields: readonly Field[],
): string[] {
  return Object.entries(errors ?? {}).map(([key, message]) => {
    const field = fields.find((f) => f.uuid === key);
    return field ? `${field.label}: ${message}` : `${key}: ${message}`;
  });
}
