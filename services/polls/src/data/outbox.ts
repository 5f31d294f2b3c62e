import { randomUUID } from 'node:crypto';
import type { Envelope } from '@fieldhouse/contracts';
import type { Broker, OutboxStore, OutboxWriter } from '@fieldhouse/messaging';
import type { Collections } from './collections.ts';
import type { OutboxDoc } from './documents.ts';

/** The outbox document of `message` for `exchange`, ready for the relay. */
const outboxDoc = (exchange: string, message: Envelope): OutboxDoc => ({
  _id: message.id,
  exchange,
  message,
  created_at: new Date(),
  claimed_until: new Date(0),
  attempts: 0,
});

/**
 * The index of the first message an ordered `insertMany` refused (the ones before it were
 * written, the ones after it were not tried), or undefined when the error does not say (the
 * store is unreachable: any of them may have been written).
 */
function firstFailedIndex(err: unknown): number | undefined {
  const writeErrors = (err as { writeErrors?: { index: number } | Array<{ index: number }> }).writeErrors;
  if (!writeErrors) return undefined;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  return list.length ? Math.min(...list.map((e) => e.index)) : undefined;
}

/** What a polls use case gets from {@link MongoInTransaction}: its outbox and its undo list. */
interface MongoUnitOfWork {
  /** Messages of the unit: written to the outbox once the work resolved, after its documents. */
  outbox: OutboxWriter;
  /**
   * Registers how to take back a document the work wrote (delete it), run (newest first) when
   * the work throws afterwards or its messages cannot be written. Undo steps that fail are
   * ignored: the document stays, as a failed rollback would leave it.
   */
  onRollback(undo: () => Promise<unknown>): void;
}

/**
 * Runs a use case with the outbox messages it adds (the MongoDB counterpart of messaging's
 * `InTransaction`); resolves with what the work resolves.
 */
export type MongoInTransaction = <T>(work: (unit: MongoUnitOfWork) => Promise<T>) => Promise<T>;

/**
 * The one way the polls service runs a use case together with its outbox messages
 * (`ctx.inTransaction`), built on what the store allows. FerretDB (the polls store) has no
 * multi-document transactions, so a unit of work cannot commit its documents and its messages
 * atomically; instead it keeps the guarantee the one-time password flow needs, "no message
 * without its documents, and no documents left behind without their message":
 *
 * 1. the work writes its documents (each single-document write is atomic) and registers an
 *    undo for each with `onRollback`; messages it adds are only buffered;
 * 2. when the work throws, the undo steps run and the error is rethrown: nothing is queued;
 * 3. when it resolves, its messages are written to the `outbox` collection (one ordered
 *    `insertMany`, after the documents, so the relay never publishes a message whose documents
 *    are not written yet); if that write fails, the messages it wrote (all it may have written
 *    when the store does not say) are deleted, the undo steps run, and the error is rethrown;
 * 4. once messages are written, `written` (the relay's kick) is called.
 *
 * Two windows are left. While step 3 cleans up after a partial `insertMany`, the relay may
 * already have published a message that was written, just before it is deleted and its
 * documents undone: a one-time password e-mail for a pending vote that no longer exists (the
 * voter then votes again and gets a new one). And a store that fails during the clean-up itself
 * (the delete fails too) leaves the message to be sent (at-least-once, as before this helper),
 * or the document until it expires.
 */
export function mongoInTransaction(
  c: Collections,
  written: () => void = () => undefined,
): MongoInTransaction {
  return async (work) => {
    const messages: OutboxDoc[] = [];
    const undo: Array<() => Promise<unknown>> = [];
    const rollback = async () => {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    };
    let result;
    try {
      result = await work({
        outbox: {
          add: async (exchange, message) => {
            messages.push(outboxDoc(exchange, message));
          },
        },
        onRollback: (step) => undo.push(step),
      });
    } catch (err) {
      await rollback();
      throw err;
    }
    if (!messages.length) return result;
    try {
      await c.outbox.insertMany(messages, { ordered: true });
    } catch (err) {
      const written = messages.slice(0, firstFailedIndex(err) ?? messages.length);
      if (written.length)
        await c.outbox.deleteMany({ _id: { $in: written.map((m) => m._id) } }).catch(() => undefined);
      await rollback();
      throw err;
    }
    written();
    return result;
  };
}

/**
 * The MongoDB outbox collection as an {@link OutboxStore} for messaging's `OutboxRelay`.
 * Without transactions or `SKIP LOCKED` (FerretDB), a batch is claimed in three statements
 * whatever its size: the oldest free messages are listed, marked with a claim token and
 * `claimed_until` in one `updateMany` (only those still free), and read back by that token.
 * They are published in their order (one confirm channel keeps it), each awaiting its
 * publisher confirm, and the confirmed ones are deleted in one statement. A relay that dies lets
 * its claim go after `claimMs`; a crash between the confirm and the delete publishes them again:
 * at-least-once, and consumers dedupe by message id. A message whose publish failed is kept,
 * with its error, and tried again 2 s later.
 *
 * A batch, not one message at a time: the fault suite's webhook flood (docs/reliability.md)
 * wrote 60 messages in a burst, and relaying them one by one (three statements each, 50 to 100
 * ms on a loaded FerretDB) held the next owner's message 3 to 5 s behind them.
 */
export class MongoOutboxStore implements OutboxStore {
  private readonly c: Collections;
  private readonly claimMs: number;
  private readonly batchSize: number;

  /**
   * @param claimMs how long a relay holds the messages it claimed (ms), then another may take them
   * @param batchSize most messages claimed and published at once
   */
  constructor(collections: Collections, claimMs = 30_000, batchSize = 100) {
    this.c = collections;
    this.claimMs = claimMs;
    this.batchSize = batchSize;
  }

  /**
   * Publishes the oldest free messages, up to one batch.
   * @returns how many were published, and `more` when the batch was full and all went out
   * @throws the first publish error, once the failed messages are marked (they stay in the outbox)
   */
  async relayBatch(broker: Broker): Promise<{ published: number; more: boolean }> {
    const now = new Date();
    const free = await this.c.outbox
      .find({ claimed_until: { $lte: now } }, { projection: { _id: 1 } })
      .sort({ created_at: 1 })
      .limit(this.batchSize)
      .toArray();
    if (!free.length) return { published: 0, more: false };
    const claim = randomUUID();
    await this.c.outbox.updateMany(
      { _id: { $in: free.map((d) => d._id) }, claimed_until: { $lte: now } },
      { $set: { claimed_until: new Date(now.getTime() + this.claimMs), claim }, $inc: { attempts: 1 } },
    );
    const docs = await this.c.outbox.find({ claim }).sort({ created_at: 1 }).toArray();
    const results = await Promise.allSettled(docs.map((d) => broker.publish(d.exchange, d.message)));
    const sent = docs.filter((_, i) => results[i]!.status === 'fulfilled').map((d) => d._id);
    if (sent.length) await this.c.outbox.deleteMany({ _id: { $in: sent }, claim });
    const failed = docs.flatMap((d, i) => {
      const r = results[i]!;
      return r.status === 'rejected' ? [{ id: d._id, reason: r.reason as unknown }] : [];
    });
    if (failed.length) {
      await this.c.outbox.updateMany(
        { _id: { $in: failed.map((f) => f.id) }, claim },
        {
          $set: {
            last_error: String((failed[0]!.reason as Error | undefined)?.message ?? failed[0]!.reason),
            claimed_until: new Date(Date.now() + 2_000),
          },
        },
      );
      throw failed[0]!.reason;
    }
    return { published: sent.length, more: free.length === this.batchSize };
  }
}
