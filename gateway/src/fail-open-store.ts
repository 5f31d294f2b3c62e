import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';

export interface FailOpenStoreOptions {
  /**
   * Builds the store that does the counting (e.g. `new RedisStore({...})` of rate-limit-redis).
   * Called at start and again after a failure: a fresh store is initialised before the next hit,
   * so a store whose set-up failed (rate-limit-redis loads its Lua scripts in `init`, once) is
   * replaced rather than kept broken.
   */
  create: () => Store;
  /** Called with each failure of the store (the hit then passes). */
  onFailure: (err: unknown) => void;
}

/**
 * An express-rate-limit store that fails open around another store, through the public `Store`
 * interface only: while the inner store fails (Redis unreachable), a hit counts as the first of a
 * fresh window, so the request passes and nothing is counted; `get` answers undefined and
 * `decrement` / `resetKey` do nothing. After a failure the inner store is rebuilt with
 * `create()` and `init(options)` before it is used again.
 */
export class FailOpenStore implements Store {
  /** Counts live in the inner store (Redis), shared by every replica. */
  readonly localKeys = false;
  private readonly opts: FailOpenStoreOptions;
  private options: Options | undefined;
  private current: Promise<Store> | undefined;

  constructor(opts: FailOpenStoreOptions) {
    this.opts = opts;
  }

  /** Called by express-rate-limit with the limiter's options; builds the inner store. */
  init(options: Options): void {
    this.options = options;
    this.current = this.fresh();
    // A failed start is reported when the first hit awaits it; no unhandled rejection here.
    this.current.catch(() => undefined);
  }

  /** Counts a hit; while the inner store fails: `{totalHits: 1, resetTime: now + windowMs}`. */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await (await this.store()).increment(key);
    } catch (err) {
      this.failed(err);
      return { totalHits: 1, resetTime: new Date(Date.now() + (this.options?.windowMs ?? 60_000)) };
    }
  }

  /** A client's hits and window end, or undefined (also while the inner store fails). */
  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      return await (await this.store()).get?.(key);
    } catch (err) {
      this.failed(err);
      return undefined;
    }
  }

  /** Takes one hit back (express-rate-limit's `skipSuccessfulRequests`); no-op on failure. */
  async decrement(key: string): Promise<void> {
    try {
      await (await this.store()).decrement(key);
    } catch (err) {
      this.failed(err);
    }
  }

  /** Forgets a client's hits; no-op on failure. */
  async resetKey(key: string): Promise<void> {
    try {
      await (await this.store()).resetKey(key);
    } catch (err) {
      this.failed(err);
    }
  }

  private async fresh(): Promise<Store> {
    const store = this.opts.create();
    if (this.options) await store.init?.(this.options);
    return store;
  }

  private store(): Promise<Store> {
    this.current ??= this.fresh();
    return this.current;
  }

  /** Reports the failure; the next call builds and initialises a fresh inner store. */
  private failed(err: unknown): void {
    this.opts.onFailure(err);
    this.current = undefined;
  }
}
