import { call, collectionApi } from '../../api/client.ts';
import { ApiError } from '../../api/problem.ts';
import { loadProblemMessages, problemMessage } from '../../api/problem-message.ts';
import { codeMessage } from './code-message.ts';
import type { Field, SyncResult } from '../collection/types.ts';
import { errorPathOfKey } from './answers.ts';
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
 * field of entry 3; inside a repeat's instance, the path of uuids and instance indexes
 * `<repeat uuid>.1.<field uuid>`: errorPathOfKey), so the form shows each message under its
 * field, in its instance; other keys are kept.
 */
function errorsByField(
  item: QueueItem,
  errors: Record<string, unknown> | undefined,
  own?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors ?? {})) {
    const field = errorPathOfKey(key, item.entries);
    // A reason not about a field (`project`: the limit, the window) reads as its code's message.
    const text =
      !field && own ? own : Array.isArray(messages) ? messages.map(String).join(' ') : String(messages);
    const at = field ?? key;
    out[at] = out[at] ? `${out[at]} ${text}` : text;
  }
  return out;
}

/** The message of a refusal's own code (not the generic `validation_failed`), when the console has one. */
const ownMessage = (code: string | null | undefined) =>
  code && code !== 'validation_failed' ? codeMessage(code, '') || undefined : undefined;

/**
 * The `errors` of a whole batch's 422 by item: the service names each bad value by its path in
 * the request (`submissions.1.data.0.value`: an answer holding a NUL character or broken
 * Unicode, which no database stores), so each item gets its own errors keyed as a refusal of
 * that item alone (`data.0.value`). Keys naming no item of the batch are left out.
 */
function errorsByItem(batch: QueueItem[], errors: Record<string, unknown> | undefined) {
  const out = new Map<QueueItem, Record<string, unknown>>();
  for (const [key, messages] of Object.entries(errors ?? {})) {
    const [, index, rest] = /^submissions\.(\d+)(?:\.(.+))?$/.exec(key) ?? [];
    const item = index === undefined ? undefined : batch[Number(index)];
    if (!item) continue;
    out.set(item, { ...out.get(item), [rest ?? 'item']: messages });
  }
  return out;
}

const messagesOf = (errors: Record<string, unknown>) =>
  Object.values(errors)
    .flatMap((m) => (Array.isArray(m) ? m.map(String) : [String(m)]))
    .join(' ');

/** Batches of pending items within {@link BATCH_BYTES} and {@link BATCH_ITEMS}. */
function batches(items: QueueItem[]): QueueItem[][] {
  const out: QueueItem[][] = [];
  let current: QueueItem[] = [];
  let bytes = 0;
  for (const item of items) {
    // Bytes, not UTF-16 units: the service's limit counts the UTF-8 body.
    const size = new TextEncoder().encode(JSON.stringify(item.entries)).length + 200;
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
 *
 * A batch refused whole never refuses the items that did nothing wrong: a 422 naming items
 * (`submissions.1.data.0.value`) refuses those, with their errors under their fields, and sends
 * the others again; a 413 (body over the limit) splits the batch in two until one item alone
 * is refused. A refused item keeps everything typed.
 */
export async function sendBySync(items: QueueItem[]): Promise<SendReport> {
  await loadProblemMessages();
  const device_id = await deviceId();
  let answered = 0;
  const refuse = async (item: QueueItem, message: string, errors: Record<string, string> = {}) => {
    await putQueueItem({ ...item, status: 'refused', message, errors });
    answered++;
  };
  const work = batches(items);
  while (work.length) {
    const batch = work.shift()!;
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
      // Not an answer of the API (a 200 without results, say): each item keeps the reason.
      if (!(err instanceof ApiError)) {
        for (const item of batch) await refuse(item, err instanceof Error ? err.message : String(err));
        continue;
      }
      if (err.status === 0 || err.status === 401 || err.status >= 500 || err.status === 429)
        return { answered, stoppedBy: err };
      if (err.status === 413 && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        work.unshift(batch.slice(0, half), batch.slice(half));
        continue;
      }
      const named =
        err.status === 422
          ? errorsByItem(batch, err.problem.errors)
          : new Map<QueueItem, Record<string, unknown>>();
      if (named.size === 0) {
        // Nothing says which item: each one keeps the service's reason.
        for (const item of batch) await refuse(item, problemMessage(err));
        continue;
      }
      for (const [item, errors] of named) await refuse(item, messagesOf(errors), errorsByField(item, errors));
      const rest = batch.filter((i) => !named.has(i));
      if (rest.length) work.unshift(rest);
      continue;
    }
    for (const result of results) {
      const item = batch.find((i) => i.local_id === result.local_id);
      if (!item) continue;
      await putQueueItem({
        ...item,
        status: STATUS[result.status],
        server_id: result.id,
        message: result.message === undefined ? undefined : codeMessage(result.code, result.message),
        errors: errorsByField(item, result.errors, ownMessage(result.code)),
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
  await loadProblemMessages();
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
        message: problemMessage(err),
        errors: errorsByField(item, err.problem.errors, ownMessage(err.problem.code)),
      });
    }
    answered++;
  }
  return { answered };
}

/**
 * A refusal's messages, each once, with field labels ("Age in months: must be at most 59");
 * reasons about no field (the project's limit, a closed project) as the service gave them.
 */
export function describeErrors(
  errors: Record<string, string> | undefined,
  fields: readonly Field[],
): string[] {
  const lines = Object.entries(errors ?? {}).map(([key, message]) => {
    const where = labelOfPath(key, fields);
    return where ? `${where}: ${message}` : message;
  });
  return [...new Set(lines)];
}

/**
 * The labels along a path of errorPathOfKey: `<member uuid>.1.<age uuid>` → "Member 2 › Age";
 * undefined when its first part is no field's uuid (a reason about no field).
 */
function labelOfPath(path: string, fields: readonly Field[]): string | undefined {
  const parts = path.split('.');
  if (!fields.some((f) => f.uuid === parts[0])) return undefined;
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const field = fields.find((f) => f.uuid === parts[i] || (i > 0 && f.name === parts[i]));
    if (!field) return undefined;
    const instance = parts[i + 1];
    if (instance !== undefined && /^\d+$/.test(instance)) {
      words.push(`${field.label} ${Number(instance) + 1}`);
      i++;
    } else words.push(field.label);
  }
  return words.join(' › ');
}
