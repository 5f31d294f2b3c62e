import type { Knex } from 'knex';
import { usersProjection, type ProjectedUser, type UserVersion } from '@fieldhouse/users-projection';

/** A user as the collection service knows it (projection of the gateway's users). */
export type UserRow = ProjectedUser;

/**
 * Collection's users projection (`users`, messages recorded in `processed_messages` as
 * `collection.users`), with the rules of `@fieldhouse/users-projection`: newest `updated_at`
 * wins, ties and replays change nothing, e-mail stored lower-cased.
 */
export const users = usersProjection({
  usersTable: 'users',
  processedMessagesTable: 'processed_messages',
  consumer: 'collection.users',
});

/** Writes a user's version when it is newer than the stored one (replays change nothing). */
export const upsertUser = (db: Knex | Knex.Transaction, u: UserVersion): Promise<boolean> =>
  users.upsertVersion(db, u);

/** The user with this id, or undefined. */
export const findUserById = (db: Knex | Knex.Transaction, id: number): Promise<UserRow | undefined> =>
  users.findById(db, id);

/** The user with this e-mail (case-insensitive; the newest version if two ids share it), or undefined. */
export const findUserByEmail = (db: Knex | Knex.Transaction, email: string): Promise<UserRow | undefined> =>
  users.findByEmail(db, email);
