import { randomUUID } from 'node:crypto';
import type { Logger } from '@fieldhouse/logger';
import type { RedisClient } from '../redis.ts';
import type { TokenWithUser } from './tokens-repo.ts';

/** Redis pub/sub channel (after the configured prefix) on which replicas announce revoked token ids. */
const REVOCATION_CHANNEL = 'identity:token-revoked';
/** Channel on which each replica acknowledges an announcement once it has evicted the token. */
const ACK_CHANNEL = 'identity:token-revoked-ack';
/** How long a revoked id is refused by `set` (a lookup that began before the revocation). */
const REVOKED_MEMORY_MS = 60_000;

/**
 * Verified personal access tokens kept in memory for `ttlMs`, so most requests skip the
 * PostgreSQL lookup, without weakening revocation ("a token revoked through one gateway is
 * refused by every other on the very next request", issue 20):
 * - revoking evicts the entry here, announces `<id> <nonce>` on a Redis channel that every
 *   gateway replica subscribes to, and waits until every replica that received it has
 *   acknowledged the eviction (`PUBLISH` says how many received it) before the revocation is
 *   answered; a replica that does not acknowledge within `ackTimeoutMs` (default 2 s) is logged,
 *   and drops the token when its entry ends (`ttlMs`) at the latest;
 * - a revoked id is not cached again for a minute, so a lookup that read the token just before
 *   the revocation cannot put it back;
 * - the cache is only used while this replica's subscription is live: while Redis is down, or
 *   after a reconnect (the cache is then emptied, as announcements may have been missed), every
 *   request goes to PostgreSQL.
 * A hit still compares the presented secret's hash with the stored one and checks expiry.
 */
export class TokenCache {
  private readonly entries = new Map<number, { row: TokenWithUser; until: number }>();
  /** Ids revoked lately, with when they may be cached again. */
  private readonly revoked = new Map<number, number>();
  /** Revocations of this replica waiting for acknowledgements, by nonce. */
  private readonly pending = new Map<string, () => void>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly ackTimeoutMs: number;
  private readonly publisher: RedisClient;
  private readonly subscriber: RedisClient | undefined;
  private readonly logger: Logger;
  private readonly channel: string;
  private readonly ackChannel: string;
  /** Set once both channels are subscribed: the cache is not used before. */
  private subscribed = false;

  constructor(
    redis: RedisClient,
    logger: Logger,
    ttlMs: number,
    keyPrefix = '',
    maxEntries = 50_000,
    ackTimeoutMs = 2_000,
  ) {
    this.channel = keyPrefix + REVOCATION_CHANNEL;
    this.ackChannel = keyPrefix + ACK_CHANNEL;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.ackTimeoutMs = ackTimeoutMs;
    this.publisher = redis;
    this.logger = logger;
    if (ttlMs <= 0) return;
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', () => undefined); // the main client already logs Redis errors
    this.subscriber.on('ready', () => this.entries.clear());
    this.subscriber.on('end', () => this.entries.clear());
    this.subscriber
      .connect()
      .then(() =>
        Promise.all([
          this.subscriber!.subscribe(this.channel, (message) => this.onAnnouncement(message)),
          this.subscriber!.subscribe(this.ackChannel, (nonce) => this.pending.get(nonce)?.()),
        ]),
      )
      .then(() => {
        this.subscribed = true;
      })
      .catch((err: unknown) =>
        logger.warn('token cache disabled until Redis answers', { error: String(err) }),
      );
  }

  /** Whether this replica's revocation subscription is live, so the cache is in use. */
  get live(): boolean {
    return this.subscribed && this.subscriber?.isReady === true;
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

  /** Caches a token just read from PostgreSQL (not one revoked in the last minute). */
  set(row: TokenWithUser): void {
    if (!this.live) return;
    const revokedUntil = this.revoked.get(row.id);
    if (revokedUntil !== undefined) {
      if (revokedUntil > Date.now()) return;
      this.revoked.delete(row.id);
    }
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(row.id, { row, until: Date.now() + this.ttlMs });
  }

  /**
   * Evicts a revoked token here and on every other replica; resolves once every replica that
   * received the announcement has evicted it (or after `ackTimeoutMs`, logged). Never rejects.
   */
  async revoke(id: number): Promise<void> {
    this.evict(id);
    if (!this.subscriber) return;
    const nonce = randomUUID();
    let acks = 0;
    let receivers = Infinity; // until PUBLISH answers; acknowledgements may come before it does
    let allAcked!: () => void;
    const acked = new Promise<void>((resolve) => (allAcked = resolve));
    this.pending.set(nonce, () => {
      if (++acks >= receivers) allAcked();
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      receivers = Number(await this.publisher.publish(this.channel, `${id} ${nonce}`));
      if (acks >= receivers) return;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.ackTimeoutMs);
      });
      if (await Promise.race([acked.then(() => false), timedOut]))
        this.logger.warn('a token revocation was not acknowledged by every gateway replica', {
          tokenId: id,
          receivers,
          acknowledged: acks,
          cacheSeconds: this.ttlMs / 1000,
        });
    } catch (err) {
      this.logger.warn('could not announce a token revocation', { error: String(err) });
    } finally {
      clearTimeout(timer);
      this.pending.delete(nonce);
    }
  }

  /** An announcement `<id> <nonce>` (or `<id>`, from an older replica): evict, then acknowledge. */
  private onAnnouncement(message: string): void {
    const [id, nonce] = message.split(' ');
    this.evict(Number(id));
    if (nonce)
      this.publisher
        .publish(this.ackChannel, nonce)
        .catch((err: unknown) =>
          this.logger.warn('could not acknowledge a token revocation', { error: String(err) }),
        );
  }

  private evict(id: number): void {
    this.entries.delete(id);
    const now = Date.now();
    this.revoked.set(id, now + REVOKED_MEMORY_MS);
    if (this.revoked.size > this.maxEntries)
      for (const [k, until] of this.revoked) if (until <= now) this.revoked.delete(k);
  }

  async close(): Promise<void> {
    this.entries.clear();
    if (this.subscriber?.isOpen) await this.subscriber.close().catch(() => undefined);
  }
}
