import type { Knex } from 'knex';
import type { UserPayload } from '@fieldhouse/contracts';
import { processOnce } from '@fieldhouse/messaging';

/**
 * A user as a service's projection keeps them (design.md, "Messaging": services keep a copy of
 * the gateway's users, fed by its `user.created` / `user.updated` events and by the callers' JWT
 * claims). `email` is stored lower-cased; `updated_at` is the version of the row.
 */
export interface ProjectedUser {
  id: number;
  name: string;
  email: string;
  /** `en` or `fr`, or null when unknown (never chosen, or only seen in JWT claims): English. */
  language: string | null;
  /** An IANA time zone name (`Europe/Paris`), or null when unknown: UTC. */
  time_zone: string | null;
  updated_at: Date;
}

/** A user's profile at a given version, as an event carries it (`updated_at`: ISO 8601 or Date). */
export interface UserVersion {
  id: number;
  name: string;
  email: string;
  /** Absent or null: unknown (events written before issue 32 carry neither). */
  language?: string | null;
  time_zone?: string | null;
  updated_at: string | Date;
}

/** A caller as the gateway's JWT describes them (claims `sub`, `name`, `email`). */
export interface CallerClaims {
  id: number;
  name: string;
  email: string;
  /**
   * The JWT's `email_verified` (true only when the claim says so): not stored, but a service may
   * grant something by address (an invitation) only to a verified one.
   */
  email_verified?: boolean;
}

/** Where a service keeps its projection. */
export interface UsersProjectionOptions {
  /**
   * The projection table: `id` integer primary key, `name` text, `email` text, `language` text
   * null, `time_zone` text null, `updated_at` timestamptz (an index on `lower(email)` serves
   * {@link UsersProjection.findByEmail}).
   */
  usersTable: string;
  /** The processed-messages table of `@fieldhouse/messaging` (`defineProcessedMessagesTable`). */
  processedMessagesTable: string;
  /** The consumer name recorded with each message id, e.g. `collection.users`. */
  consumer: string;
}

type Db = Knex | Knex.Transaction;

/**
 * The one set of rules for a users projection:
 * - an event's version is its `updated_at`: the newest version wins; an equal or older version
 *   changes nothing (so an older event delivered after a newer one is ignored);
 * - an event is applied at most once per message id (duplicates and replays change nothing);
 * - e-mail addresses are stored lower-cased and looked up case-insensitively;
 * - claims (no version of their own) insert a user not yet known, as of now, and for a known
 *   user correct name and e-mail when they differ but keep the stored version, so they never
 *   hide an event that follows.
 */
export interface UsersProjection {
  readonly options: UsersProjectionOptions;
  /**
   * Applies a `user.created` / `user.updated` event once per message id, in one transaction with
   * the message id record. Resolves true when the message was new (whether or not its version
   * won), false for a duplicate.
   */
  applyEvent(db: Knex, messageId: string, user: UserPayload): Promise<boolean>;
  /**
   * Writes a user's version when it is newer than the stored one (or the user is unknown).
   * Resolves true when a row was written. No message-id bookkeeping: see {@link applyEvent}.
   */
  upsertVersion(db: Db, user: UserVersion): Promise<boolean>;
  /**
   * Records a caller from their JWT claims: inserts an unknown user (version: now), so a user
   * who called once can be found by e-mail before their `user.created` arrives. A known user is
   * never changed by claims: the gateway's events own every change, and a claim minted before a
   * change (a request in flight) must not revert a newer event that a replay could not repair.
   * Resolves true when a row was written.
   */
  recordCaller(db: Db, caller: CallerClaims): Promise<boolean>;
  /** The user with this id, or undefined. */
  findById(db: Db, id: number): Promise<ProjectedUser | undefined>;
  /**
   * The user with this e-mail, compared case-insensitively, or undefined; when two ids share the
   * address (a change not yet seen for one of them), the newest version.
   */
  findByEmail(db: Db, email: string): Promise<ProjectedUser | undefined>;
}

/** Binds the projection's rules to a service's tables. */
export function usersProjection(options: UsersProjectionOptions): UsersProjection {
  const { usersTable: table, processedMessagesTable, consumer } = options;

  const upsertVersion = async (db: Db, user: UserVersion): Promise<boolean> => {
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `INSERT INTO ?? (id, name, email, language, time_zone, updated_at) VALUES (?, ?, lower(?), ?, ?, ?)
       ON CONFLICT (id) DO UPDATE
         SET name = excluded.name, email = excluded.email, language = excluded.language,
             time_zone = excluded.time_zone, updated_at = excluded.updated_at
         WHERE ??.updated_at < excluded.updated_at
       RETURNING id`,
      [
        table,
        user.id,
        user.name,
        user.email,
        user.language ?? null,
        user.time_zone ?? null,
        user.updated_at,
        table,
      ],
    );
    return rows.length > 0;
  };

  return {
    options,
    upsertVersion,
    applyEvent: (db, messageId, user) =>
      processOnce(db, processedMessagesTable, consumer, messageId, async (trx) => {
        await upsertVersion(trx, user);
      }),
    async recordCaller(db, caller) {
      const { rows } = await db.raw<{ rows: unknown[] }>(
        `INSERT INTO ?? (id, name, email, updated_at) VALUES (?, ?, lower(?), now())
         ON CONFLICT (id) DO NOTHING
         RETURNING id`,
        [table, caller.id, caller.name, caller.email],
      );
      return rows.length > 0;
    },
    findById: (db, id) =>
      db<ProjectedUser>(table)
        .select('id', 'name', 'email', 'language', 'time_zone', 'updated_at')
        .where({ id })
        .first(),
    findByEmail: (db, email) =>
      db<ProjectedUser>(table)
        .select('id', 'name', 'email', 'language', 'time_zone', 'updated_at')
        .whereRaw('lower(email) = lower(?)', [email])
        .orderBy('updated_at', 'desc')
        .first(),
  };
}
