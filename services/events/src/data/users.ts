import type { UserPayload } from '@fieldhouse/contracts';
import type { ProjectedUser } from '@fieldhouse/users-projection';
import { users } from '../users-projection.ts';
import type { Db, Tx } from './tx.ts';

/** A user of the projection (fed by the gateway's user events and the callers' JWT claims). */
export interface UserRow {
  id: number;
  name: string;
  email: string;
  /** `en`, `fr`, or null when unknown (then English). */
  language: string | null;
  /** An IANA time zone name, or null when unknown (then UTC). */
  time_zone: string | null;
}

const row = (u: ProjectedUser | undefined): UserRow | undefined =>
  u && { id: u.id, name: u.name, email: u.email, language: u.language, time_zone: u.time_zone };

/**
 * Writes a `user.created`/`user.updated` event in the use case's transaction, once per message
 * id (`processed_messages`, consumer `events.users`), keeping the version with the latest
 * `updated_at` (replays and out-of-order deliveries change nothing).
 * @returns false for a message id recorded already (nothing written).
 */
export async function recordUserEvent(tx: Tx, messageId: string, user: UserPayload): Promise<boolean> {
  const { processedMessagesTable, consumer } = users.options;
  const inserted = await tx(processedMessagesTable)
    .insert({ consumer, message_id: messageId })
    .onConflict(['consumer', 'message_id'])
    .ignore()
    .returning('message_id');
  if (!inserted.length) return false;
  await users.upsertVersion(tx, user);
  return true;
}

/** The user with this id, or undefined. */
export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return row(await users.findById(db, id));
}

/** The user with this e-mail (case-insensitive), or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return row(await users.findByEmail(db, email));
}
