import type { Knex } from 'knex';

/** A synchronised item (table `sync_items`): its identity, submission and last applied client time. */
export interface SyncItemRow {
  user_id: number;
  device_id: string;
  local_id: string;
  project_id: number;
  submission_id: number;
  client_updated_at: Date;
}

export const findSyncItem = (
  db: Knex | Knex.Transaction,
  userId: number,
  deviceId: string,
  localId: string,
): Promise<SyncItemRow | undefined> =>
  db('sync_items').where({ user_id: userId, device_id: deviceId, local_id: localId }).first();

/** Records a new item; a concurrent insert of the same identity fails with 23505 (unique violation). */
export const insertSyncItem = async (trx: Knex.Transaction, row: SyncItemRow) => {
  await trx('sync_items').insert(row);
};

/**
 * Moves an item's `client_updated_at` forward, only if the stored one is older; resolves false
 * when a concurrent request already applied a version at least as new (the caller rolls back).
 */
export async function advanceSyncItem(
  trx: Knex.Transaction,
  item: SyncItemRow,
  clientUpdatedAt: Date,
): Promise<boolean> {
  const n = await trx('sync_items')
    .where({ user_id: item.user_id, device_id: item.device_id, local_id: item.local_id })
    .where('client_updated_at', '<', clientUpdatedAt)
    .update({ client_updated_at: clientUpdatedAt, synced_at: trx.fn.now() });
  return n === 1;
}
