import type { Knex } from 'knex';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  created_at: Date;
  updated_at: Date;
}

/** A user as every API response shows it: never the password hash. */
export interface PublicUser {
  id: number;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

export const toPublicUser = (u: UserRow): PublicUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
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

  findById(id: number): Promise<UserRow | undefined> {
    return this.db<UserRow>('users').where({ id }).first();
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

  async update(trx: Knex.Transaction, id: number, changes: Partial<Pick<UserRow, 'name' | 'password_hash'>>) {
    const [row] = await trx<UserRow>('users')
      .where({ id })
      .update({ ...changes, updated_at: trx.fn.now() as unknown as Date })
      .returning('*');
    return row;
  }
}
