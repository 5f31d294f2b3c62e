import type { RequestHandler } from 'express';
import type { Logger } from '@fieldhouse/logger';
import { ProblemError } from '@fieldhouse/problem';

/** One store a service cannot work without, and a real operation that proves it answers. */
export interface WatchedStore {
  /** The store's name, as `/readyz` shows it (`mongodb`, `postgres`). */
  name: string;
  /**
   * A real data operation (a read), not a ping: during the FerretDB wedge of issue 31 `ping`
   * answered while every read and write hung. It must free what it holds when it times out (a
   * client of its own with a socket time limit, a cancelled query), since a hung store makes it
   * time out again and again.
   */
  probe: () => Promise<unknown>;
}

/** How a {@link StoreWatch} decides (docs/reliability.md, "When a store hangs"). */
export interface StoreWatchOptions {
  stores: WatchedStore[];
  logger: Logger;
  /** Between two probes of a store, ms (default 200). */
  intervalMs?: number;
  /** A probe not answered within this is a failure, ms (default 600). */
  timeoutMs?: number;
  /** Failed probes in a row that mark a store unresponsive (default 1). */
  failuresToTrip?: number;
  /** `Retry-After` of the 503 answers, seconds (default 2). */
  retryAfterSeconds?: number;
}

/**
 * Watches the stores a service needs and refuses requests at once while one does not answer,
 * instead of letting each wait for the store until the gateway's 504 (issue 31: a hung FerretDB
 * held every polls request 30 s). Each store is probed every `intervalMs`, one probe at a time;
 * `failuresToTrip` probes in a row that fail or take longer than `timeoutMs` mark it
 * unresponsive (logged once), and the first probe that answers marks it back (logged once).
 * While any store is marked, {@link middleware} answers every request with
 * `503 store_unavailable` and `Retry-After`: nothing is read or written, so nothing already
 * stored is touched. `/healthz` stays 200 (the process is alive: restarting it cannot help a
 * hung store) and `/readyz` reports the store as before.
 */
export class StoreWatch {
  private readonly opts: Required<Omit<StoreWatchOptions, 'stores' | 'logger'>>;
  private readonly stores: WatchedStore[];
  private readonly logger: Logger;
  private readonly failures = new Map<string, number>();
  private readonly down = new Set<string>();
  private readonly busy = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: StoreWatchOptions) {
    this.stores = opts.stores;
    this.logger = opts.logger;
    this.opts = {
      intervalMs: opts.intervalMs ?? 200,
      timeoutMs: opts.timeoutMs ?? 600,
      failuresToTrip: opts.failuresToTrip ?? 1,
      retryAfterSeconds: opts.retryAfterSeconds ?? 2,
    };
  }

  /** Starts probing (idempotent); the timer does not keep the process alive. */
  start(): this {
    if (this.timer || this.stores.length === 0) return this;
    this.timer = setInterval(() => {
      for (const store of this.stores) void this.probe(store);
    }, this.opts.intervalMs);
    this.timer.unref();
    return this;
  }

  /** Stops probing. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The stores marked unresponsive now (empty when all answer). */
  get unresponsive(): string[] {
    return [...this.down];
  }

  /**
   * Express middleware: `next()` while every store answers; otherwise a
   * `503 store_unavailable` problem with `Retry-After: <retryAfterSeconds>`.
   */
  middleware(): RequestHandler {
    return (_req, _res, next) => {
      if (this.down.size === 0) return next();
      next(
        new ProblemError(
          503,
          'The service’s data store is not answering; nothing was changed. Please retry shortly.',
          {
            code: 'store_unavailable',
            headers: { 'Retry-After': String(this.opts.retryAfterSeconds) },
          },
        ),
      );
    };
  }

  /**
   * One probe of `store`, unless the last one is still waiting (then nothing new is sent: a
   * hung store gets one probe at a time). A probe past its deadline counts as a failure at
   * once; when it ends later, its outcome counts too (an answer marks the store back).
   */
  private async probe(store: WatchedStore): Promise<void> {
    if (this.busy.has(store.name)) return;
    this.busy.add(store.name);
    let answered = false;
    // The deadline is decided after pending I/O (setImmediate): after an event-loop stall (a
    // major GC, a busy CPU) the timers run before the poll phase, and an answer already in the
    // socket would otherwise count as none, answering 503 under mere load.
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!answered) this.failed(store.name, `no answer within ${this.opts.timeoutMs} ms`);
        }),
      this.opts.timeoutMs,
    );
    try {
      await store.probe();
      answered = true;
      clearTimeout(timer);
      this.failures.set(store.name, 0);
      if (this.down.delete(store.name)) this.logger.warn('store answers again', { store: store.name });
    } catch (err) {
      answered = true;
      clearTimeout(timer);
      this.failed(store.name, err instanceof Error ? err.message : String(err));
    } finally {
      this.busy.delete(store.name);
    }
  }

  private failed(name: string, reason: string): void {
    const failures = (this.failures.get(name) ?? 0) + 1;
    this.failures.set(name, failures);
    if (failures < this.opts.failuresToTrip || this.down.has(name)) return;
    this.down.add(name);
    this.logger.error('store unresponsive: answering 503 until it answers again', { store: name, reason });
  }
}
