import type { Knex } from 'knex';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  /** `en` or `fr`, or null when never chosen. */
  language: string | null;
  /** An IANA time zone name, or null when never chosen. */
  time_zone: string | null;
  /** When the current address was verified by its link; null: unverified. */
  email_verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A user as every API response shows it: never the password hash. */
export interface PublicUser {
  id: number;
  name: string;
  email: string;
  language: string | null;
  time_zone: string | null;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export const toPublicUser = (u: UserRow): PublicUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
  language: u.language,
  time_zone: u.time_zone,
  email_verified_at: u.email_verified_at?.toISOString() ?? null,
  created_at: u.created_at.toISOString(),
  updated_at: u.updated_at.toISOString(),
});

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Data access for `users`. */
export class UsersRepo {
  private readonly db: Knex;

  constructor(db: Knex) {
    this.db = db;
  }

  findByEmail(email: string, trx: Knex | Knex.Transaction = this.db): Promise<UserRow | undefined> {
    return trx<UserRow>('users')
      .where({ email: normalizeEmail(email) })
      .first();
  }

  findById(id: number, trx: Knex | Knex.Transaction = this.db): Promise<UserRow | undefined> {
    return trx<UserRow>('users').where({ id }).first();
  }

  /** Inserts a user; resolves undefined when the e-mail is taken. */
  async insert(
    trx: Knex.Transaction,
    user: { name: string; email: string; password_hash: string },
  ): Promise<UserRow | undefined> {
    const [row] = await trx<UserRow>('users')
      .insert({ ...user, email: normalizeEmail(user.email) })
      .onConflict('email')
      .ignore()
      .returning('*');
    return row;
  }

  /**
   * Changes a user's columns and stamps `updated_at` (the version services keep); resolves the
   * new row, or undefined when there is no such user. A new `email` is stored normalised; a
   * taken one rejects with PostgreSQL's unique violation (23505).
   */
  async update(
    trx: Knex.Transaction,
    id: number,
    changes: Partial<
      Pick<UserRow, 'name' | 'email' | 'password_hash' | 'language' | 'time_zone' | 'email_verified_at'>
    >,
  ): Promise<UserRow | undefined> {
    const normalized =
      changes.email === undefined ? changes : { ...changes, email: normalizeEmail(changes.email) };
    const [row] = await trx<UserRow>('users')
      .where({ id })
      .update({ ...normalized, updated_at: trx.fn.now() as unknown as Date })
      .returning('*');
    return row;
  }
}
