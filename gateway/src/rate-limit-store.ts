import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';

/** Sends one Redis command and resolves with its reply (node-redis `sendCommand`). */
export type SendCommand = (args: string[]) => Promise<unknown>;

export interface WriteBehindStoreOptions {
  sendCommand: SendCommand;
  /** Prefix of the Redis keys: `<prefix><key>:<window number>`. */
  prefix: string;
  /**
   * How often local hits are added to Redis and the shared totals read back, in ms. 0 makes
   * every hit a Redis round trip before the request goes on (exact across replicas).
   */
  syncMs: number;
  /** Called when Redis fails (the store then counts locally until it is back). */
  onFailure: (err: unknown) => void;
}

/** Hits of one client in one window, as this replica knows them. */
interface Counter {
  key: string;
  window: number;
  /** Hits counted here and not yet added to Redis. */
  pending: number;
  /** Hits sent to Redis whose `INCRBY` has not answered yet (not in `shared` until it does). */
  sending: number;
  /** The shared total read back from Redis at the last sync (it includes our flushed hits). */
  shared: number;
  /** Whether Redis took the key's expiry (sent with the first write only). */
  expirySet: boolean;
}

/**
 * A fixed-window counter store for express-rate-limit that counts in memory and writes behind
 * to Redis, so that a request costs no Redis round trip (the idea of Kong's `sync_rate`):
 *
 * - Windows are aligned on the epoch: window `n` covers `[n·windowMs, (n+1)·windowMs)`; the
 *   Redis key `<prefix><key>:<n>` expires one window after its end (`PEXPIREAT`, idempotent).
 * - `increment` answers at once from `shared + sending + pending`, this replica's view of the
 *   total (hits whose write to Redis has not answered yet still count).
 * - Every `syncMs` the pending hits of every client go to Redis in one pipeline (`INCRBY` and
 *   `PEXPIREAT` the first time per key) and each reply becomes the new `shared` total, so other replicas' hits
 *   are seen within one sync. A client spread over `r` replicas can therefore exceed the
 *   limit by at most about `(r − 1) × its request rate × syncMs` (for example 2 extra requests
 *   at 10 req/s over 2 replicas with 200 ms). One replica alone is exact.
 * - `syncMs = 0`: every increment waits for its own `INCRBY` (exact across replicas, one round
 *   trip per request).
 * - Redis down: hits stay pending and limits hold per replica from local counts; the backlog is
 *   written when Redis is back, and counters of windows already over are dropped.
 *
 * Memory: one small record per client seen in the current window (and the previous one until
 * its hits are written).
 */
export class WriteBehindRedisStore implements Store {
  readonly prefix: string;
  /** Counts live in Redis, shared by every replica (express-rate-limit checks this flag). */
  readonly localKeys = false;
  private windowMs = 60_000;
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private readonly opts: WriteBehindStoreOptions;

  constructor(opts: WriteBehindStoreOptions) {
    this.opts = opts;
    this.prefix = opts.prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  /** Counts one hit of `key`; resolves with the total this replica knows and the window's end. */
  increment(key: string): ClientRateLimitInfo | Promise<ClientRateLimitInfo> {
    const c = this.counter(key, true)!;
    c.pending += 1;
    if (this.opts.syncMs === 0) {
      // Exact: this hit's own INCRBY reply is its total (local counts only while Redis fails).
      return this.writeOne(c).then((total) =>
        total === undefined ? this.info(c) : { ...this.info(c), totalHits: total },
      );
    }
    this.schedule();
    return this.info(c);
  }

  decrement(key: string): void {
    const c = this.counter(key, false);
    if (!c) return;
    c.pending -= 1;
    this.schedule();
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const c = this.counter(key, false);
    return c && this.info(c);
  }

  async resetKey(key: string): Promise<void> {
    const window = this.windowOf(Date.now());
    this.counters.delete(`${key}:${window}`);
    await this.opts.sendCommand(['DEL', this.redisKey(key, window)]);
  }

  /** Writes every pending hit now (tests, shutdown); resolves once Redis answered or failed. */
  async sync(): Promise<void> {
    if (this.syncing) await this.syncing;
    this.syncing = this.writeAll().finally(() => (this.syncing = undefined));
    await this.syncing;
  }

  /** Stops the timer and writes what is pending. */
  async shutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sync();
  }

  private windowOf(now: number): number {
    return Math.floor(now / this.windowMs);
  }

  private redisKey(key: string, window: number): string {
    return `${this.prefix}${key}:${window}`;
  }

  private counter(key: string, create: boolean): Counter | undefined {
    const window = this.windowOf(Date.now());
    const id = `${key}:${window}`;
    let c = this.counters.get(id);
    if (!c && create) {
      c = { key, window, pending: 0, sending: 0, shared: 0, expirySet: false };
      this.counters.set(id, c);
    }
    return c;
  }

  private info(c: Counter): ClientRateLimitInfo {
    return {
      totalHits: c.shared + c.sending + c.pending,
      resetTime: new Date((c.window + 1) * this.windowMs),
    };
  }

  private schedule(): void {
    if (this.timer || this.opts.syncMs === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sync();
    }, this.opts.syncMs);
    this.timer.unref();
  }

  /**
   * `INCRBY` of the counter's pending hits and, the first time, `PEXPIREAT` one window after its
   * end; on success
   * `shared` becomes Redis's total, which it resolves with (undefined when Redis failed or
   * there was nothing to write). Commands sent in the same tick share one pipeline (node-redis),
   * so a sync of many counters is one round trip.
   */
  private async writeOne(c: Counter): Promise<number | undefined> {
    const n = c.pending;
    if (n === 0) return undefined;
    // Still counted while on their way (`sending`): a hit that comes in before Redis answers
    // must see them, or a slow answer would let requests past the limit.
    c.pending -= n;
    c.sending += n;
    const key = this.redisKey(c.key, c.window);
    const added = this.opts.sendCommand(['INCRBY', key, String(n)]);
    // Absolute, so once per counter is enough (the key only goes away when it expires or a
    // reset deletes it, and with it this counter); a failure is retried with the next write.
    const expiry = c.expirySet
      ? undefined
      : this.opts.sendCommand(['PEXPIREAT', key, String((c.window + 2) * this.windowMs)]).then(
          () => (c.expirySet = true),
          () => undefined,
        );
    let total: number | undefined;
    try {
      total = Number(await added);
      c.sending -= n;
      c.shared = Math.max(c.shared, total);
    } catch (err) {
      c.sending -= n;
      c.pending += n;
      this.opts.onFailure(err);
    }
    await expiry;
    return total;
  }

  private async writeAll(): Promise<void> {
    const current = this.windowOf(Date.now());
    const writes: Array<Promise<unknown>> = [];
    for (const [id, c] of this.counters) {
      if (c.window < current - 1 || (c.window < current && c.pending === 0)) {
        // A window that is over: nothing more to learn from it, and its hits (if Redis has
        // been down for a whole window) no longer matter.
        this.counters.delete(id);
      } else if (c.pending !== 0) {
        writes.push(this.writeOne(c));
      }
    }
    await Promise.all(writes);
    // Hits that came in meanwhile, or that Redis refused: the next sync takes them.
    for (const c of this.counters.values()) {
      if (c.pending !== 0) return this.schedule();
    }
  }
}
