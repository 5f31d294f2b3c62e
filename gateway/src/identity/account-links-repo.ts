import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret } from './token-format.ts';

/** What a link e-mailed by the gateway is for. */
export type LinkPurpose = 'password_reset' | 'email_verification';

/** How long a link stays usable after it is made (docs/identity.md, "Accounts"). */
const LINK_LIFETIME_MINUTES: Record<LinkPurpose, number> = {
  // Issue 32: "a single-use token valid 30 minutes".
  password_reset: 30,
  email_verification: 48 * 60,
};

/** A used link: whose it is and the address it was sent to. */
export interface ConsumedLink {
  user_id: number;
  email: string;
}

/**
 * Single-use links (`account_links`): the secret (32 random bytes, base64url) goes into the
 * e-mail, the table keeps its SHA-256 only. Expiry is the stored `expires_at`, compared with
 * PostgreSQL's clock.
 */
export class AccountLinksRepo {
  private readonly db: Knex;

  constructor(db: Knex) {
    this.db = db;
  }

  /**
   * Makes a link for `userId` sent to `email`; resolves with its plain secret. With
   * `replacePrevious`, the user's unused links of the same purpose stop working (a new reset
   * e-mail makes the older ones useless).
   */
  async create(
    trx: Knex | Knex.Transaction,
    userId: number,
    purpose: LinkPurpose,
    email: string,
    replacePrevious: boolean,
  ): Promise<string> {
    if (replacePrevious) await this.revokeAll(trx, userId, purpose);
    const secret = randomBytes(32).toString('base64url');
    await trx('account_links').insert({
      user_id: userId,
      purpose,
      token_hash: hashSecret(secret),
      email,
      expires_at: trx.raw(`now() + make_interval(mins => ?)`, [LINK_LIFETIME_MINUTES[purpose]]),
    });
    return secret;
  }

  /**
   * Uses a link, atomically: resolves with its user and address when the secret names an unused,
   * unexpired link of this purpose, and marks it used in the same statement (a second use, even
   * a concurrent one, resolves undefined).
   */
  async consume(
    trx: Knex | Knex.Transaction,
    purpose: LinkPurpose,
    secret: string,
  ): Promise<ConsumedLink | undefined> {
    const [row] = await trx('account_links')
      .where({ token_hash: hashSecret(secret), purpose })
      .whereNull('used_at')
      .andWhere('expires_at', '>', trx.fn.now())
      .update({ used_at: trx.fn.now() })
      .returning(['user_id', 'email']);
    return row as ConsumedLink | undefined;
  }

  /** Marks every unused link of this user and purpose used. */
  revokeAll(trx: Knex | Knex.Transaction, userId: number, purpose: LinkPurpose): Promise<number> {
    return trx('account_links')
      .where({ user_id: userId, purpose })
      .whereNull('used_at')
      .update({ used_at: trx.fn.now() });
  }

  /** Deletes links that expired more than a day ago; resolves with how many. */
  purgeExpired(): Promise<number> {
    return this.db('account_links')
      .where('expires_at', '<', this.db.raw("now() - interval '1 day'"))
      .delete();
  }
}
