import type { Knex } from 'knex';
import type { ProjectedUser, UserVersion } from '@fieldhouse/users-projection';
import { users } from '../users-projection.ts';

/** A user as the collection service knows it (projection of the gateway's users). */
export type UserRow = ProjectedUser;

/** Writes a user's version when it is newer than the stored one (replays change nothing). */
export const upsertUser = (db: Knex | Knex.Transaction, u: UserVersion): Promise<boolean> =>
  users.upsertVersion(db, u);

/**
 * Records a user event's message id as processed by the users consumer, in the use case's
 * transaction (`processed_messages`, consumer `collection.users`).
 * @returns false when it was recorded already (a duplicate delivery or a replay).
 */
export async function recordUserEventOnce(tx: Knex.Transaction, messageId: string): Promise<boolean> {
  const { processedMessagesTable, consumer } = users.options;
  const inserted = await tx(processedMessagesTable)
    .insert({ consumer, message_id: messageId })
    .onConflict(['consumer', 'message_id'])
    .ignore()
    .returning('message_id');
  return inserted.length > 0;
}

/** The user with this id, or undefined. */
export const findUserById = (db: Knex | Knex.Transaction, id: number): Promise<UserRow | undefined> =>
  users.findById(db, id);

/** The user with this e-mail (case-insensitive; the newest version if two ids share it), or undefined. */
export const findUserByEmail = (db: Knex | Knex.Transaction, email: string): Promise<UserRow | undefined> =>
  users.findByEmail(db, email);

/** A known recipient's language and IANA time zone (null: never chosen). */
export interface RecipientPreferences {
  email: string;
  language: string | null;
  time_zone: string | null;
}

/**
 * The language and time zone of the users among `emails` (compared lower-cased, as the
 * projection stores them); addresses that are no user's are not returned.
 */
export const preferencesByEmail = (
  db: Knex | Knex.Transaction,
  emails: readonly string[],
): Promise<RecipientPreferences[]> =>
  emails.length === 0
    ? Promise.resolve([])
    : db('users')
        .whereIn(
          'email',
          emails.map((e) => e.toLowerCase()),
        )
        .select('email', 'language', 'time_zone');
