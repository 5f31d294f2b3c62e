import type { Knex } from 'knex';

/** A user as the collection service knows it (projection of the gateway's users). */
export interface UserRow {
  id: number;
  name: string;
  email: string;
  updated_at: Date;
}

/**
 * Inserts or updates a user; keeps the newest version (by `updated_at`), so replayed or
 * out-of-order events change nothing.
 */
export async function upsertUser(
  db: Knex | Knex.Transaction,
  u: { id: number; name: string; email: string; updated_at: string | Date },
): Promise<void> {
  await db.raw(
    `INSERT INTO users (id, name, email, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, updated_at = excluded.updated_at
     WHERE users.updated_at <= excluded.updated_at`,
    [u.id, u.name, u.email, u.updated_at],
  );
}

export const findUserById = (db: Knex | Knex.Transaction, id: number): Promise<UserRow | undefined> =>
  db('users').where({ id }).first();

export const findUserByEmail = (db: Knex, email: string): Promise<UserRow | undefined> =>
  db('users').whereRaw('lower(email) = lower(?)', [email]).orderBy('updated_at', 'desc').first();
