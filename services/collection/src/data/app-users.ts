import type { Db, Tx } from './tx.ts';

/** A row of `app_users` (never its key: only `key_hash` is stored, and it is not selected). */
export interface AppUserRow {
  id: number;
  project_id: number;
  display_name: string;
  created_by: number | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = ['id', 'project_id', 'display_name', 'created_by', 'created_at', 'revoked_at'];

/** Inserts an app user of the project with the SHA-256 (hex) of its key. */
export async function insertAppUser(
  trx: Tx,
  row: { project_id: number; display_name: string; key_hash: string; created_by: number },
): Promise<AppUserRow> {
  const [created] = await trx('app_users').insert(row).returning(COLUMNS);
  return created as AppUserRow;
}

/** The project's app users, revoked ones included, newest first. */
export const listAppUsers = (db: Db, projectId: number): Promise<AppUserRow[]> =>
  db('app_users')
    .select(COLUMNS)
    .where('project_id', projectId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);

/** One app user of the project, or undefined. */
export const findAppUser = (db: Db, projectId: number, id: number): Promise<AppUserRow | undefined> =>
  db('app_users').select(COLUMNS).where({ project_id: projectId, id }).first();

/** The app user whose key has this SHA-256 (hex), revoked or not, or undefined. */
export const appUserByKeyHash = (db: Db, keyHash: string): Promise<AppUserRow | undefined> =>
  db('app_users').select(COLUMNS).where('key_hash', keyHash).first();

/** Marks the app user revoked now (once: a second call keeps the first instant). */
export async function revokeAppUser(trx: Tx, id: number): Promise<AppUserRow> {
  const [row] = await trx('app_users')
    .where('id', id)
    .update({ revoked_at: trx.raw('coalesce(revoked_at, now())') })
    .returning(COLUMNS);
  return row as AppUserRow;
}
