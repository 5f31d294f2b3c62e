import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Project, VersionWithFields } from '../collection/types.ts';
import type { Answers, DataEntry } from './answers.ts';

/** Where a queued submission stands. `pending` until the service answered for it. */
export type QueueStatus = 'pending' | 'sent' | 'duplicate' | 'conflict' | 'refused';

/**
 * A submission kept in this browser until the service has it: the answers as typed (so a
 * refused one can be corrected), the entries sent, and the service's answer once there is one.
 */
export interface QueueItem {
  /** The client-side identifier of spec 2.1's synchronisation (a UUID). */
  local_id: string;
  project_id: number;
  form_version_id: number;
  /** As typed: by field uuid, or for a form with logic by session path (`age`, `member.1.age`). */
  answers: Answers;
  /** A form with logic: the engine's answers tree (repeats as arrays of instances), to resume from. */
  tree?: Record<string, unknown>;
  /** The submission's data (nested entries for repeats, form-model.md). */
  entries: DataEntry[];
  consent: boolean | null;
  /** ISO 8601 UTC, when the collector pressed "send". */
  client_updated_at: string;
  status: QueueStatus;
  /** The submission's id on the server, once created. */
  server_id?: number | null;
  /** The service's reason, for conflicts and refusals. */
  message?: string;
  /** Problems by field uuid (refusals), else by the service's key. */
  errors?: Record<string, string>;
}

/** An unfinished form, kept as it is typed. */
export interface Draft {
  project_id: number;
  answers: Answers;
  /** A form with logic: the engine's answers tree (repeats as arrays of instances). */
  tree?: Record<string, unknown>;
  consent: boolean;
  updated_at: string;
}

/** The form a collector last loaded for a project, for a reload without network. */
export interface CachedForm {
  project_id: number;
  project: Project;
  version: VersionWithFields;
  saved_at: string;
}

interface CollectDb extends DBSchema {
  queue: { key: string; value: QueueItem; indexes: { by_project: number } };
  drafts: { key: number; value: Draft };
  forms: { key: number; value: CachedForm };
  meta: { key: string; value: string };
}

let db: Promise<IDBPDatabase<CollectDb>> | undefined;

/**
 * This browser's store of the web form (IndexedDB `fieldhouse-collect`, through idb): the
 * queue of submissions not yet confirmed, drafts, the last loaded form of each project and
 * the device id. IndexedDB survives reloads and closed tabs; nothing here is deleted except by
 * the user (a queued item, a draft) or replaced by a newer copy (a form).
 */
const collectDb = () =>
  (db ??= openDB<CollectDb>('fieldhouse-collect', 1, {
    upgrade(d) {
      d.createObjectStore('queue', { keyPath: 'local_id' }).createIndex('by_project', 'project_id');
      d.createObjectStore('drafts', { keyPath: 'project_id' });
      d.createObjectStore('forms', { keyPath: 'project_id' });
      d.createObjectStore('meta');
    },
  }));

/** The `device_id` of spec 2.1's synchronisation: one per browser, made on first use. */
export async function deviceId(): Promise<string> {
  const store = await collectDb();
  const known = await store.get('meta', 'device_id');
  if (known) return known;
  const made = `web-${crypto.randomUUID()}`;
  await store.put('meta', made, 'device_id');
  return made;
}

/** The queued submissions of a project, oldest first. */
export async function queueOf(projectId: number): Promise<QueueItem[]> {
  const items = await (await collectDb()).getAllFromIndex('queue', 'by_project', projectId);
  return items.sort((a, b) => a.client_updated_at.localeCompare(b.client_updated_at));
}

export const putQueueItem = async (item: QueueItem) => void (await (await collectDb()).put('queue', item));
export const deleteQueueItem = async (localId: string) =>
  void (await (await collectDb()).delete('queue', localId));

export const getDraft = async (projectId: number) => (await collectDb()).get('drafts', projectId);
export const putDraft = async (draft: Draft) => void (await (await collectDb()).put('drafts', draft));
export const deleteDraft = async (projectId: number) =>
  void (await (await collectDb()).delete('drafts', projectId));

export const getCachedForm = async (projectId: number) => (await collectDb()).get('forms', projectId);
export const putCachedForm = async (form: CachedForm) => void (await (await collectDb()).put('forms', form));
