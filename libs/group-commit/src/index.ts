/**
 * Group commit: items submitted one by one while earlier writes are in flight wait, and are
 * written together by one call of `write`, so a store that pays per statement, per commit or per
 * round trip pays once per batch. With nothing in flight an item is written at once, so a quiet
 * server adds no delay; under load, batches grow by themselves with the wait.
 *
 * Used for counted votes (services/polls, one unordered insertMany), scanner check-ins
 * (services/events, one UPDATE of every scanned code), plain submissions and project lookups
 * (services/collection: one INSERT, one SELECT).
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
      const r = results[i];
      if (!r) w.reject(new Error(`group commit: no result for item ${i} of ${batch.length}`));
      else if (r.ok) w.resolve(r.value);
      else w.reject(r.error);
    });
  }
}

/**
 * Whether a failed batch statement may be retried item by item: errors caused by one row's
 * data or constraints (SQLSTATE classes 22 and 23) or by a clash with another transaction
 * (class 40: deadlock, serialization). Other errors (connection lost, pool exhausted, timeout)
 * are not: retrying 200 statements at once would only add load, and a statement whose commit
 * was lost in transit might be applied twice.
 */
export function retryAlone(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^(22|23|40)/.test(code);
}

/** How a batch of items is done by one statement, and each item alone ({@link statementBatches}). */
export interface StatementBatch<In, Row, Out> {
  /** One statement for the whole batch; each row names its item by `ord`, its index in `items`. */
  statement: (items: In[]) => Promise<Array<Row & { ord: number }>>;
  /** The same work for one item: a batch of one, and the fallback. */
  alone: (item: In) => Promise<Out>;
  /** An item's value from its row. */
  fromRow: (row: Row) => Out;
  /** The value of an item the statement returned no row for (without it, such an item is rejected). */
  noRow?: () => Out;
  /** Told when the statement failed and each item is retried alone ({@link retryAlone}). */
  onFallback?: (err: unknown, items: number) => void;
}

/**
 * A {@link BatchWriter} that does a batch with one statement and matches the rows back to the
 * items by `ord`. A batch of one runs `alone`. When the statement fails with an error that
 * {@link retryAlone} accepts, nothing of it was applied, and each item runs `alone`, so a bad
 * item fails only itself; any other error fails the batch's items.
 */
export function statementBatches<In, Row, Out>(b: StatementBatch<In, Row, Out>): BatchWriter<In, Out> {
  const alone = async (item: In): Promise<ItemResult<Out>> => {
    try {
      return { ok: true, value: await b.alone(item) };
    } catch (error) {
      return { ok: false, error };
    }
  };
  return async (items) => {
    if (items.length === 1) return [await alone(items[0]!)];
    let rows: Array<Row & { ord: number }>;
    try {
      rows = await b.statement(items);
    } catch (err) {
      if (!retryAlone(err)) throw err;
      b.onFallback?.(err, items.length);
      return Promise.all(items.map(alone));
    }
    const noRow = b.noRow;
    const out = new Array<ItemResult<Out>>(items.length);
    if (noRow) for (let i = 0; i < items.length; i++) out[i] = { ok: true, value: noRow() };
    for (const row of rows) out[row.ord] = { ok: true, value: b.fromRow(row) };
    return out;
  };
}
