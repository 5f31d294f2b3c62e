import type { Logger } from '@fieldhouse/logger';
import type { RedisClient } from '../redis.ts';
import type { TokenWithUser } from './tokens-repo.ts';

/** Redis pub/sub channel (after the configured prefix) on which replicas announce revoked token ids. */
const REVOCATION_CHANNEL = 'identity:token-revoked';

/**
 * Verified personal access tokens kept in memory for `ttlMs`, so most requests skip the
 * PostgreSQL lookup, without weakening revocation:
 * - revoking evicts the entry here at once and announces the id on a Redis channel that every
 *   gateway replica subscribes to;
 * - the cache is only used while this replica's subscription is live: while Redis is down, or
 *   after a reconnect (the cache is then emptied, as announcements may have been missed), every
 *   request goes to PostgreSQL.
 * A hit still compares the presented secret's hash with the stored one and checks expiry.
 */
export class TokenCache {
  private readonly entries = new Map<number, { row: TokenWithUser; until: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly publisher: RedisClient;
  private readonly subscriber: RedisClient | undefined;
  private readonly logger: Logger;
  private readonly channel: string;

  constructor(redis: RedisClient, logger: Logger, ttlMs: number, keyPrefix = '', maxEntries = 50_000) {
    this.channel = keyPrefix + REVOCATION_CHANNEL;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.publisher = redis;
    this.logger = logger;
    if (ttlMs <= 0) return;
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', () => undefined); // the main client already logs Redis errors
    this.subscriber.on('ready', () => this.entries.clear());
    this.subscriber.on('end', () => this.entries.clear());
    this.subscriber
      .connect()
      .then(() => this.subscriber!.subscribe(this.channel, (id) => this.entries.delete(Number(id))))
      .catch((err: unknown) =>
        logger.warn('token cache disabled until Redis answers', { error: String(err) }),
      );
  }

  /** Whether this replica's revocation subscription is live, so the cache is in use. */
  get live(): boolean {
    return this.subscriber?.isReady === true;
  }

  /** The cached token with this id, when the cache is live and the entry fresh. */
  get(id: number): TokenWithUser | undefined {
    if (!this.live) return undefined;
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    if (hit.until <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return hit.row;
  }

  set(row: TokenWithUser): void {
    if (!this.live) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(row.id, { row, until: Date.now() + this.ttlMs });
  }

  /** Evicts a revoked token here and on every other replica. */
  async revoke(id: number): Promise<void> {
    this.entries.delete(id);
    if (!this.subscriber) return;
    await this.publisher
      .publish(this.channel, String(id))
      .catch((err: unknown) =>
        this.logger.warn('could not announce a token revocation', { error: String(err) }),
      );
  }

  async close(): Promise<void> {
    this.entries.clear();
    if (this.subscriber?.isOpen) await this.subscriber.close().catch(() => undefined);
  }
}
