import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashSecret } from './token-format.ts';

export interface SessionWithUser {
  id_hash: string;
  csrf_token: string;
  expires_at: Date;
  last_activity_at: Date;
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  /** Whether the user's current address is verified; null for a guest session. */
  user_email_verified: boolean | null;
}

/** A signed-in browser session as its user may see it (never its cookie or the cookie's hash). */
export interface SessionListing {
  /** 24 hex characters derived from the stored hash: names the session in the API only. */
  id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_activity_at: Date;
  expires_at: Date;
}

/**
 * The public id of a session: the first 24 hex characters of SHA-256 over a label and the
 * stored hash. It cannot be turned back into the hash, let alone the cookie.
 */
export const publicSessionId = (idHash: string) =>
  createHash('sha256').update(`fieldhouse-session:${idHash}`).digest('hex').slice(0, 24);

/** A random URL-safe value of 256 bits (session ids, CSRF tokens). */
const randomToken = () => randomBytes(32).toString('base64url');

/**
 * Browser sessions. The cookie holds a random id; the table holds its SHA-256, the user (null
 * for a guest session that only carries a CSRF token), the CSRF token and a sliding expiry.
 */
export class SessionsRepo {
  private readonly db: Knex;
  private readonly lifetimeMs: number;

  constructor(db: Knex, lifetimeMinutes: number) {
    this.db = db;
    this.lifetimeMs = lifetimeMinutes * 60_000;
  }

  /** Creates a session and resolves with the cookie value and its CSRF token. */
  async create(
    userId: number | null,
    meta: { ip?: string | undefined; userAgent?: string | undefined },
  ): Promise<{ cookie: string; csrfToken: string }> {
    const cookie = randomToken();
    const csrfToken = randomToken();
    await this.db('sessions').insert({
      id_hash: hashSecret(cookie),
      user_id: userId,
      csrf_token: csrfToken,
      ip: meta.ip?.slice(0, 64),
      user_agent: meta.userAgent?.slice(0, 512),
      expires_at: new Date(Date.now() + this.lifetimeMs),
    });
    return { cookie, csrfToken };
  }

  /** The live session for a cookie value, with its user; undefined when unknown or expired. */
  find(cookie: string): Promise<SessionWithUser | undefined> {
    return this.db('sessions as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .where('s.id_hash', hashSecret(cookie))
      .andWhere('s.expires_at', '>', this.db.fn.now())
      .first(
        's.id_hash',
        's.csrf_token',
        's.expires_at',
        's.last_activity_at',
        's.user_id',
        'u.name as user_name',
        'u.email as user_email',
        this.db.raw('(u.email_verified_at IS NOT NULL) AS user_email_verified'),
      );
  }

  /** Slides the expiry forward, at most once a minute per session. */
  touch(idHash: string): Promise<unknown> {
    return this.db('sessions')
      .where('id_hash', idHash)
      .andWhere('last_activity_at', '<', this.db.raw("now() - interval '60 seconds'"))
      .update({ last_activity_at: this.db.fn.now(), expires_at: new Date(Date.now() + this.lifetimeMs) });
  }

  destroy(idHash: string): Promise<unknown> {
    return this.db('sessions').where('id_hash', idHash).delete();
  }

  /** The live sessions of a user, most recently active first, each with its public id. */
  async listForUser(userId: number): Promise<Array<SessionListing & { id_hash: string }>> {
    const rows: Array<Omit<SessionListing, 'id'> & { id_hash: string }> = await this.db('sessions')
      .where('user_id', userId)
      .andWhere('expires_at', '>', this.db.fn.now())
      .orderBy('last_activity_at', 'desc')
      .select('id_hash', 'ip', 'user_agent', 'created_at', 'last_activity_at', 'expires_at');
    return rows.map((r) => ({ ...r, id: publicSessionId(r.id_hash) }));
  }

  /** Ends every session of a user but `keepIdHash` (if given); resolves with how many ended. */
  destroyOthers(userId: number, keepIdHash: string | undefined): Promise<number> {
    const q = this.db('sessions').where('user_id', userId);
    return (keepIdHash ? q.andWhereNot('id_hash', keepIdHash) : q).delete();
  }

  /** Ends the session of a user whose public id is `id`; resolves with whether there was one. */
  async destroyByPublicId(userId: number, id: string): Promise<boolean> {
    const found = (await this.listForUser(userId)).find((s) => s.id === id);
    if (!found) return false;
    await this.destroy(found.id_hash);
    return true;
  }

  /** Deletes expired sessions; resolves with how many. */
  purgeExpired(): Promise<number> {
    return this.db('sessions').where('expires_at', '<=', this.db.fn.now()).delete();
  }
}
