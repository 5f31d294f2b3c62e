import type { Knex } from 'knex';
import { generateSecret, hashSecret } from './token-format.ts';

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  token_hash: string;
  last_used_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
}

/** A token as listed: id, name and times, never the secret or its hash. */
export interface PublicToken {
  id: number;
  name: string;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export const toPublicToken = (t: TokenRow): PublicToken => ({
  id: t.id,
  name: t.name,
  last_used_at: t.last_used_at?.toISOString() ?? null,
  expires_at: t.expires_at?.toISOString() ?? null,
  created_at: t.created_at.toISOString(),
});

/** What authentication needs from a token lookup: the token and its user in one row. */
export interface TokenWithUser {
  id: number;
  token_hash: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  user_id: number;
  user_name: string;
  user_email: string;
  /** Whether the user's current address is verified (`email_verified_at` set). */
  user_email_verified: boolean;
}

/** Data access for `personal_access_tokens`. */
export class TokensRepo {
  private readonly db: Knex;

  constructor(db: Knex) {
    this.db = db;
  }

  /** Creates a token and resolves with its row and the plain `id|secret` (shown once). */
  async create(
    userId: number,
    name: string,
    expiresAt: Date | null,
    trx: Knex | Knex.Transaction = this.db,
  ): Promise<{ row: TokenRow; plainText: string }> {
    const secret = generateSecret();
    const [row] = await trx<TokenRow>('personal_access_tokens')
      .insert({ user_id: userId, name, token_hash: hashSecret(secret), expires_at: expiresAt })
      .returning('*');
    return { row: row!, plainText: `${row!.id}|${secret}` };
  }

  /** One indexed lookup by primary key, joined with the user. */
  findForAuth(id: number): Promise<TokenWithUser | undefined> {
    return this.db('personal_access_tokens as t')
      .join('users as u', 'u.id', 't.user_id')
      .where('t.id', id)
      .first(
        't.id',
        't.token_hash',
        't.expires_at',
        't.last_used_at',
        'u.id as user_id',
        'u.name as user_name',
        'u.email as user_email',
        this.db.raw('(u.email_verified_at IS NOT NULL) AS user_email_verified'),
      );
  }

  /** Records use at most once a minute per token (a conditional update, fire and forget). */
  touch(id: number): Promise<unknown> {
    return this.db('personal_access_tokens')
      .where('id', id)
      .andWhere((q) =>
        q
          .whereNull('last_used_at')
          .orWhere('last_used_at', '<', this.db.raw("now() - interval '60 seconds'")),
      )
      .update({ last_used_at: this.db.fn.now() });
  }

  async listForUser(
    userId: number,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenRow[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.db<TokenRow>('personal_access_tokens')
        .where({ user_id: userId })
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage),
      this.db('personal_access_tokens').where({ user_id: userId }).count<{ count: number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(counted[0]?.count ?? 0) };
  }

  /** Deletes a token of this user; resolves false when it does not exist or belongs to someone else. */
  async deleteForUser(userId: number, id: number): Promise<boolean> {
    return (await this.db('personal_access_tokens').where({ id, user_id: userId }).delete()) > 0;
  }
}
