import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import type { Envelope } from '@fieldhouse/contracts';
import type { Broker } from './broker.ts';

/**
 * Columns of an outbox table; a service's migration calls this so every outbox has the same
 * shape: `id` (bigserial, relay order), `exchange`, `message` (the envelope, JSONB),
 * `created_at`, `attempts`, `last_error`.
 */
export const defineOutboxTable =
  (knex: Knex) =>
  (t: Knex.CreateTableBuilder): void => {
    t.bigIncrements('id').primary();
    t.string('exchange', 100).notNullable();
    t.jsonb('message').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
  };

/**
 * Writes a message to the outbox inside the caller's transaction, so it is published if and
 * only if the transaction commits (design.md: nothing lost between the write and the publish).
 */
export async function writeOutbox(
  trx: Knex | Knex.Transaction,
  table: string,
  exchange: string,
  message: Envelope,
): Promise<void> {
  await trx(table).insert({ exchange, message: JSON.stringify(message) });
}

/** Where an outbox keeps its pending messages; {@link OutboxRelay} drives it. */
export interface OutboxStore {
  /**
   * Publishes up to one batch of pending messages, oldest first, each removed only once the
   * broker confirmed it. Resolves with how many were published and whether more may be waiting.
   */
  relayBatch(broker: Broker): Promise<{ published: number; more: boolean }>;
}

/**
 * A PostgreSQL outbox table (see {@link defineOutboxTable}): a batch is locked with
 * `FOR UPDATE SKIP LOCKED` (so several replicas share the work), published with publisher
 * confirms, and deleted in the same transaction only once every message is confirmed. A crash
 * before the commit leaves the rows to be published again: delivery is at-least-once, and
 * consumers dedupe by message id.
 */
class KnexOutboxStore implements OutboxStore {
  private readonly knex: Knex;
  private readonly table: string;
  private readonly batchSize: number;

  constructor(knex: Knex, table: string, batchSize = 100) {
    this.knex = knex;
    this.table = table;
    this.batchSize = batchSize;
  }

  relayBatch(broker: Broker): Promise<{ published: number; more: boolean }> {
    const { table, batchSize } = this;
    return this.knex.transaction(async (trx) => {
      const rows: Array<{ id: string; exchange: string; message: Envelope }> = await trx(table)
        .select('id', 'exchange', 'message')
        .orderBy('id')
        .limit(batchSize)
        .forUpdate()
        .skipLocked();
      if (!rows.length) return { published: 0, more: false };
      const results = await Promise.allSettled(rows.map((r) => broker.publish(r.exchange, r.message)));
      const published = rows.filter((_, i) => results[i]!.status === 'fulfilled').map((r) => r.id);
      if (published.length) await trx(table).whereIn('id', published).delete();
      for (const [i, r] of rows.entries()) {
        const result = results[i]!;
        if (result.status === 'fulfilled') continue;
        const reason = result.reason as Error | undefined;
        await trx(table)
          .where('id', r.id)
          .update({ attempts: trx.raw('attempts + 1'), last_error: String(reason?.message ?? reason) });
      }
      const failed = rows.length - published.length;
      return { published: published.length, more: failed === 0 && rows.length === batchSize };
    });
  }
}

export interface OutboxRelayOptions {
  broker: Broker;
  logger: Logger;
  /** The outbox to relay; or give `knex` and `table` for a PostgreSQL outbox table. */
  store?: OutboxStore;
  knex?: Knex;
  table?: string;
  /** Poll interval when idle (ms); {@link OutboxRelay.kick} publishes sooner. */
  intervalMs?: number;
  batchSize?: number;
}

/**
 * Publishes an outbox to RabbitMQ in the background: polls every `intervalMs`, at once after
 * {@link kick}, batch after batch until it is empty; a failed round is logged and retried at
 * the next tick.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly opts: OutboxRelayOptions;
  private readonly store: OutboxStore;

  constructor(opts: OutboxRelayOptions) {
    this.opts = opts;
    if (opts.store) this.store = opts.store;
    else if (opts.knex && opts.table) this.store = new KnexOutboxStore(opts.knex, opts.table, opts.batchSize);
    else throw new Error('OutboxRelay needs a store, or knex and table');
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Publishes pending messages now (call after a commit that wrote to the outbox). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops polling and waits for the batch in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Publishes every pending message; resolves with how many were published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const { published, more } = await this.store.relayBatch(this.opts.broker);
      total += published;
      if (!more) return total;
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.opts.logger.warn('outbox relay failed; will retry', { err });
        })
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          const next = this.again ? 0 : (this.opts.intervalMs ?? 1000);
          this.again = false;
          this.schedule(next);
        });
    }, ms);
    this.timer.unref();
  }
}

/** The outbox of one unit of work: each message added is written in the unit's transaction. */
export interface OutboxWriter {
  /** Queues `message` for `exchange`; published if and only if the transaction commits. */
  add(exchange: string, message: Envelope): Promise<void>;
}

/**
 * Runs `work` in one transaction together with the outbox messages it adds, then calls
 * `written` (the relay's kick) when the commit wrote any message. Resolves with what `work`
 * resolves; a throw rolls back the writes and the messages alike.
 */
export type InTransaction = <T>(
  work: (trx: Knex.Transaction, outbox: OutboxWriter) => Promise<T>,
) => Promise<T>;

/**
 * The one way a PostgreSQL service runs a use case with its outbox messages (design.md:
 * nothing lost between the write and the publish): `inTransactionWith(db, 'outbox', kick)`.
 */
export function inTransactionWith(
  knex: Knex,
  table: string,
  written: () => void = () => undefined,
): InTransaction {
  return async (work) => {
    let wrote = false;
    const result = await knex.transaction((trx) =>
      work(trx, {
        add: async (exchange, message) => {
          wrote = true;
          await writeOutbox(trx, table, exchange, message);
        },
      }),
    );
    if (wrote) written();
    return result;
  };
}
