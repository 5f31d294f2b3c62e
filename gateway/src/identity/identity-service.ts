import type { Knex } from 'knex';
import { Exchanges, IdentityEvents, envelope, type UserPayload } from '@fieldhouse/contracts';
import { writeOutbox } from '@fieldhouse/messaging';
import type { PasswordHasher } from './passwords.ts';
import { TokensRepo } from './tokens-repo.ts';
import { DeviceCredentialsRepo } from './device-credentials-repo.ts';
import { UsersRepo, type UserRow } from './users-repo.ts';

export interface IdentityServiceDeps {
  db: Knex;
  hasher: PasswordHasher;
  /** Personal access tokens expire after this many minutes; 0 means never. */
  tokenExpirationMinutes: number;
  /** Called after a commit that wrote to the outbox (the relay publishes at once). */
  onOutboxWrite?: () => void;
}

/** The `user.*` event payload of a user (never credentials). */
export const userPayload = (u: UserRow): UserPayload => ({
  id: u.id,
  name: u.name,
  email: u.email,
  language: u.language,
  time_zone: u.time_zone,
  email_verified: u.email_verified_at !== null,
  updated_at: u.updated_at.toISOString(),
});

/**
 * Users and their credentials. Every change to a user writes `user.created` or `user.updated`
 * to the outbox in the same transaction (the services keep a projection of users from them).
 */
export class IdentityService {
  readonly users: UsersRepo;
  readonly tokens: TokensRepo;
  /** Scanner devices' credentials. */
  readonly devices: DeviceCredentialsRepo;
  private readonly deps: IdentityServiceDeps;

  constructor(deps: IdentityServiceDeps) {
    this.deps = deps;
    this.users = new UsersRepo(deps.db);
    this.tokens = new TokensRepo(deps.db);
    this.devices = new DeviceCredentialsRepo(deps.db);
  }

  /** Registers a user; resolves undefined when the e-mail is already taken. */
  async register(input: { name: string; email: string; password: string }): Promise<UserRow | undefined> {
    const password_hash = await this.deps.hasher.hash(input.password);
    const user = await this.deps.db.transaction(async (trx) => {
      const row = await this.users.insert(trx, { name: input.name, email: input.email, password_hash });
      if (row)
        await writeOutbox(
          trx,
          'outbox',
          Exchanges.identity,
          envelope('identity', IdentityEvents.userCreated, userPayload(row)),
        );
      return row;
    });
    if (user) this.deps.onOutboxWrite?.();
    return user;
  }

  /**
   * Creates the user, or updates the name and password of the existing user with this e-mail
   * (operators' `user:create`, idempotent by e-mail).
   */
  async upsert(input: {
    name: string;
    email: string;
    password: string;
  }): Promise<{ user: UserRow; created: boolean }> {
    const password_hash = await this.deps.hasher.hash(input.password);
    const result = await this.deps.db.transaction(async (trx) => {
      const inserted = await this.users.insert(trx, { name: input.name, email: input.email, password_hash });
      if (inserted) {
        await writeOutbox(
          trx,
          'outbox',
          Exchanges.identity,
          envelope('identity', IdentityEvents.userCreated, userPayload(inserted)),
        );
        return { user: inserted, created: true };
      }
      const existing = (await this.users.findByEmail(input.email, trx))!;
      const updated = (await this.users.update(trx, existing.id, { name: input.name, password_hash }))!;
      await writeOutbox(
        trx,
        'outbox',
        Exchanges.identity,
        envelope('identity', IdentityEvents.userUpdated, userPayload(updated)),
      );
      return { user: updated, created: false };
    });
    this.deps.onOutboxWrite?.();
    return result;
  }

  /** Checks credentials in constant time; resolves the user or undefined. */
  async verifyCredentials(email: string, password: string): Promise<UserRow | undefined> {
    const user = await this.users.findByEmail(email);
    return (await this.deps.hasher.verify(password, user?.password_hash)) ? user : undefined;
  }

  /** Issues a personal access token; resolves with its row and the plain `id|secret`. */
  issueToken(userId: number, name: string) {
    const minutes = this.deps.tokenExpirationMinutes;
    return this.tokens.create(userId, name, minutes > 0 ? new Date(Date.now() + minutes * 60_000) : null);
  }
}
