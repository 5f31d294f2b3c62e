import type { Knex } from 'knex';
import type { UserPayload } from '@fieldhouse/contracts';
import { usersProjection, type ProjectedUser } from '@fieldhouse/users-projection';

/** A user of the projection (fed by the gateway's user events and the callers' JWT claims). */
export interface UserRow {
  id: number;
  name: string;
  email: string;
}

/**
 * Events' users projection (`users`, messages recorded in `processed_messages` as
 * `events.users`), with the rules of `@fieldhouse/users-projection`: newest `updated_at` wins,
 * ties, duplicates and replays change nothing, e-mail stored lower-cased.
 */
export const users = usersProjection({
  usersTable: 'users',
  processedMessagesTable: 'processed_messages',
  consumer: 'events.users',
});

const row = (u: ProjectedUser | undefined): UserRow | undefined =>
  u && { id: u.id, name: u.name, email: u.email };

/**
 * Applies a `user.created`/`user.updated` event once per message id, keeping the version with
 * the latest `updated_at` (replays and out-of-order deliveries change nothing).
 */
export async function applyUserEvent(db: Knex, messageId: string, user: UserPayload): Promise<void> {
  await users.applyEvent(db, messageId, user);
}

/**
 * Records the caller as the gateway's JWT describes them (id, name, e-mail), so a user who
 * called once can be given the check-in role by e-mail even before their user event arrives.
 * Writes only when something changed.
 */
export async function upsertCaller(db: Knex, user: UserRow): Promise<void> {
  await users.recordCaller(db, user);
}

/** The user with this id, or undefined. */
export async function findUserById(db: Knex, id: number): Promise<UserRow | undefined> {
  return row(await users.findById(db, id));
}

/** The user with this e-mail (case-insensitive), or undefined. */
export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  return row(await users.findByEmail(db, email));
}
