/**
 * Sharing the work of concurrent requests: group commit ({@link GroupCommit}) and request
 * coalescing ({@link SingleFlight}).
 *
 * Group commit: items submitted one by one while earlier writes are in flight wait, and are
 * written together by one call of `write`, so a store that pays per statement, per commit or per
 * round trip pays once per batch. With nothing in flight an item is written at once, so a quiet
 * server adds no delay; under load, batches grow by themselves with the wait.
 *
 * Used for counted votes (services/polls, one unordered insertMany) and scanner check-ins
 * (services/events, one UPDATE of every scanned code).
 */

/** One item's result from `write`: its value, or the error of that item alone. */
export type ItemResult<Out> = { ok: true; value: Out } | { ok: false; error: unknown };

/**
 * Writes a batch; resolves with one result per item, in the order given. A rejection fails every
 * item of the batch with that error.
 */
export type BatchWriter<In, Out> = (items: In[]) => Promise<Array<ItemResult<Out>>>;

export interface GroupCommitOptions {
  /** Most items in one batch (default 256). */
  maxBatch?: number;
  /** Most batches written at once (default 2: one is written while the next fills). */
  maxInFlight?: number;
}

interface Waiting<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit<In, Out> {
  private readonly writeBatch: BatchWriter<In, Out>;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private queue: Array<Waiting<In, Out>> = [];
  private inFlight = 0;

  constructor(write: BatchWriter<In, Out>, opts: GroupCommitOptions = {}) {
    this.writeBatch = write;
    this.maxBatch = opts.maxBatch ?? 256;
    this.maxInFlight = opts.maxInFlight ?? 2;
  }

  /** Queues `item` for the next batch; settles with its own result. */
  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: Array<Waiting<In, Out>>): Promise<void> {
    let results: Array<ItemResult<Out>>;
    try {
      results = await this.writeBatch(batch.map((w) => w.item));
      if (results.length !== batch.length)
        throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => {
      const r = results[i]!;
      if (r.ok) w.resolve(r.value);
      else w.reject(r.error);
    });
  }
}

/**
 * Request coalescing: concurrent calls with the same key share one execution of `load`, and
 * the key is forgotten as soon as it settles (nothing is cached). A caller that arrives while
 * the load is running gets a result read at most one load earlier than its own arrival, as if
 * it had arrived a moment sooner. The shared value must not be mutated by its callers.
 */
export class SingleFlight<K, V> {
  private readonly load: (key: K) => Promise<V>;
  private readonly keyOf: (key: K) => string;
  private readonly running = new Map<string, Promise<V>>();

  constructor(load: (key: K) => Promise<V>, keyOf: (key: K) => string = String) {
    this.load = load;
    this.keyOf = keyOf;
  }

  /** The result of `load(key)`, shared with the calls for the same key already running. */
  get(key: K): Promise<V> {
    const k = this.keyOf(key);
    const running = this.running.get(k);
    if (running) return running;
    const p = this.load(key).finally(() => this.running.delete(k));
    this.running.set(k, p);
    return p;
  }
}
