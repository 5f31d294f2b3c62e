import type { Db } from 'mongodb';

/**
 * The polls database's collections and indexes. MongoDB has no schema migrations; this
 * declares what the service relies on (idempotent: run at every `migrate`).
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('outbox').createIndex({ created_at: 1 });
  await db.collection('processed_messages').createIndex({ consumer: 1, message_id: 1 }, { unique: true });
}
