import type { Knex } from 'knex';
import type { UserPayload } from '@fieldhouse/contracts';
import { processOnce } from '@fieldhouse/messaging';

/** A user of the projection (fed by the gateway's user events and the callers' JWT claims). */
export interface UserRow {
  id: number;
  name: string;
  email: string;
}

/**
 * Applies a `user.created`/`user.updated` event once per message id, keeping the version with
 * the latest `updated_at` (replays and out-of-order deliveries change nothing).
 */
export async function applyUserEvent(db: Knex, messageId: string, user: UserPayload): Promise<void> {
  await processOnce(db, 'processed_messages', 'events.users', messageId, async (trx) => {
    await trx.raw(
      `INSERT INTO users (id, name, email, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email,
         updated_at = excluded.updated_at
       WHERE users.updated_at < excluded.updated_at`,
      [user.id, user.name, user.email.toLowerCase(), user.updated_at],
    );
  });
}

/**
 * Records the caller as the gateway's JWT describes them (id, name, e-mail), so a user who
 * called once can be given the check-in role by e-mail even before their user event arrives.
 * Writes only when something changed.
 */
export async function upsertCaller(db: Knex, user: UserRow): Promise<void> {
  await db.raw(
    `INSERT INTO users (id, name, email, updated_at) VALUES (?, ?, ?, now())
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, updated_at = now()
     WHERE users.name <> excluded.name OR users.email <> excluded.email`,
    [user.id, user.name, user.email.toLowerCase()],
  );
}

/** The user with this id, or undefined. */
export async function findUserById(db: Knex, id: number): Promise<UserRow | undefined> {
  return db<UserRow>('users').select('id', 'name', 'email').where({ id }).first();
}

/** The user with this e-mail (case-insensitive), or undefined. */
export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  return db<UserRow>('users')
    .select('id', 'name', 'email')
    .whereRaw('lower(email) = ?', [email.toLowerCase()])
    .orderBy('updated_at', 'desc')
    .first();
}
