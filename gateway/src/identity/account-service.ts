import type { Knex } from 'knex';
import { Exchanges, IdentityEvents, envelope } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import { writeOutbox } from '@fieldhouse/messaging';
import { AccountLinksRepo } from './account-links-repo.ts';
import { accountEmail, type AccountMailer } from './account-mail.ts';
import { userPayload } from './identity-service.ts';
import type { PasswordHasher } from './passwords.ts';
import type { SessionsRepo } from './sessions-repo.ts';
import { UsersRepo, type UserRow } from './users-repo.ts';

export interface AccountServiceDeps {
  db: Knex;
  hasher: PasswordHasher;
  sessions: SessionsRepo;
  mailer: AccountMailer;
  logger: Logger;
  /** The console's public base URL (`PUBLIC_URL`, no trailing slash): e-mailed links point there. */
  publicUrl: string;
  /** Called after a commit that wrote to the outbox (the relay publishes at once). */
  onOutboxWrite?: () => void;
}

/** A change of profile (`PATCH /api/v1/me`); absent fields stay as they are. */
export interface ProfileChanges {
  name?: string;
  email?: string;
  language?: string | null;
  time_zone?: string | null;
}

/** Why a profile change was refused. */
export type ProfileRefusal = 'email_in_use';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * The account use cases of issue 32 (docs/identity.md, "Accounts"): profile, password change,
 * password reset and e-mail verification by single-use links. Every change of a user's public
 * profile writes `user.updated` to the outbox in its transaction; e-mails go out after the commit.
 */
export class AccountService {
  readonly links: AccountLinksRepo;
  private readonly users: UsersRepo;
  private readonly deps: AccountServiceDeps;

  constructor(deps: AccountServiceDeps) {
    this.deps = deps;
    this.users = new UsersRepo(deps.db);
    this.links = new AccountLinksRepo(deps.db);
  }

  private link(path: string, secret: string) {
    return `${this.deps.publicUrl}${path}#token=${secret}`;
  }

  private async publishUpdated(trx: Knex.Transaction, user: UserRow) {
    await writeOutbox(
      trx,
      'outbox',
      Exchanges.identity,
      envelope('identity', IdentityEvents.userUpdated, userPayload(user)),
    );
  }

  /**
   * Changes name, e-mail, language or time zone. A new e-mail is unverified from now on and gets
   * a verification link (older verification links stop working). Resolves the new row, or
   * `email_taken` when another account has the address.
   */
  async updateProfile(
    userId: number,
    changes: ProfileChanges,
  ): Promise<UserRow | ProfileRefusal | undefined> {
    let verification: { user: UserRow; secret: string } | undefined;
    let updated: UserRow | undefined;
    try {
      updated = await this.deps.db.transaction(async (trx) => {
        const current = await this.users.findById(userId, trx);
        if (!current) return undefined;
        const emailChanged =
          changes.email !== undefined && changes.email.trim().toLowerCase() !== current.email;
        const row = await this.users.update(trx, userId, {
          ...changes,
          ...(emailChanged ? { email_verified_at: null } : {}),
        });
        if (!row) return undefined;
        if (emailChanged) {
          const secret = await this.links.create(trx, row.id, 'email_verification', row.email, true);
          verification = { user: row, secret };
        }
        await this.publishUpdated(trx, row);
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return 'email_in_use';
      throw err;
    }
    if (updated) this.deps.onOutboxWrite?.();
    if (verification) this.mailVerification(verification.user, verification.secret);
    return updated;
  }

  /**
   * Changes the password after checking the current one: resolves false when it is wrong.
   * Every other browser session of the user ends (`keepSessionIdHash`, the caller's own, stays);
   * personal access tokens stay; unused reset links stop working.
   */
  async changePassword(
    userId: number,
    currentPassword: string,
    newPassword: string,
    keepSessionIdHash: string | undefined,
  ): Promise<boolean> {
    const user = await this.users.findById(userId);
    if (!(await this.deps.hasher.verify(currentPassword, user?.password_hash))) return false;
    const password_hash = await this.deps.hasher.hash(newPassword);
    await this.deps.db.transaction(async (trx) => {
      await this.users.update(trx, userId, { password_hash });
      await this.links.revokeAll(trx, userId, 'password_reset');
    });
    await this.deps.sessions.destroyOthers(userId, keepSessionIdHash);
    return true;
  }

  /**
   * A password reset request for `email`: when an account has the address, a new reset link
   * (the older ones stop working) is e-mailed to it; otherwise nothing happens. The caller
   * answers the same either way and does not wait for this (no enumeration by content or time).
   */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const secret = await this.links.create(this.deps.db, user.id, 'password_reset', user.email, true);
    this.deps.mailer.send(accountEmail('password_reset', user, this.link('/reset-password', secret)));
  }

  /**
   * Sets a new password from a reset link: resolves false when the link is unknown, used or
   * expired. The link is used up; every browser session of the user ends; the address counts as
   * verified (the link reached it) if it is still the account's (then `user.updated` is written,
   * `email_verified: true`).
   */
  async resetPassword(secret: string, newPassword: string): Promise<boolean> {
    const password_hash = await this.deps.hasher.hash(newPassword);
    const done = await this.deps.db.transaction(async (trx) => {
      const link = await this.links.consume(trx, 'password_reset', secret);
      if (!link) return undefined;
      const user = await this.users.findById(link.user_id, trx);
      if (!user) return undefined;
      const verifies = user.email === link.email && !user.email_verified_at;
      const row = await this.users.update(trx, user.id, {
        password_hash,
        ...(verifies ? { email_verified_at: new Date() } : {}),
      });
      if (verifies && row) await this.publishUpdated(trx, row);
      await this.links.revokeAll(trx, user.id, 'password_reset');
      return { userId: user.id, published: verifies };
    });
    if (!done) return false;
    if (done.published) this.deps.onOutboxWrite?.();
    await this.deps.sessions.destroyOthers(done.userId, undefined);
    return true;
  }

  /**
   * E-mails a verification link to the user's current address; resolves false (and sends
   * nothing) when it is verified already. Earlier verification links keep working.
   */
  async sendVerification(userId: number): Promise<boolean> {
    const user = await this.users.findById(userId);
    if (!user || user.email_verified_at) return false;
    const secret = await this.links.create(this.deps.db, user.id, 'email_verification', user.email, false);
    this.mailVerification(user, secret);
    return true;
  }

  private mailVerification(user: UserRow, secret: string) {
    this.deps.mailer.send(accountEmail('email_verification', user, this.link('/verify-email', secret)));
  }

  /**
   * Verifies an address from its link: resolves false when the link is unknown, used, expired,
   * or was sent to an address the account no longer has. A new verification writes
   * `user.updated` (`email_verified: true`).
   */
  async verifyEmail(secret: string): Promise<boolean> {
    const result = await this.deps.db.transaction(async (trx) => {
      const link = await this.links.consume(trx, 'email_verification', secret);
      if (!link) return { ok: false, published: false };
      const user = await this.users.findById(link.user_id, trx);
      if (!user || user.email !== link.email) return { ok: false, published: false };
      if (user.email_verified_at) return { ok: true, published: false };
      const row = await this.users.update(trx, user.id, { email_verified_at: new Date() });
      if (row) await this.publishUpdated(trx, row);
      return { ok: true, published: true };
    });
    if (result.published) this.deps.onOutboxWrite?.();
    return result.ok;
  }
}
