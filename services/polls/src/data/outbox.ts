import type { Envelope } from '@fieldhouse/contracts';
import type { Broker, OutboxStore } from '@fieldhouse/messaging';
import type { Collections } from './collections.ts';

/** A message waiting in the MongoDB outbox (`_id` is the envelope id). */
export interface OutboxDoc {
  _id: string;
  exchange: string;
  message: Envelope;
  created_at: Date;
  /** Until when a relay holds it (a relay that died lets it go after this time). */
  claimed_until: Date;
  attempts: number;
  last_error?: string;
}

/** Writes a message to the outbox collection (published by {@link MongoOutboxStore}). */
export async function writeOutbox(c: Collections, exchange: string, message: Envelope): Promise<void> {
  await c.outbox.insertOne({
    _id: message.id,
    exchange,
    message,
    created_at: new Date(),
    claimed_until: new Date(0),
    attempts: 0,
  });
}

/**
 * The MongoDB outbox collection as an {@link OutboxStore} for messaging's `OutboxRelay`.
 * Without transactions or `SKIP LOCKED` (FerretDB), each message is claimed with an atomic
 * `findOneAndUpdate` on `claimed_until`, published with a publisher confirm, then deleted. A
 * relay that dies lets its claim go after `claimMs`; a crash between the confirm and the delete
 * publishes it again: at-least-once, and the mail worker sends once per message id.
 */
export class MongoOutboxStore implements OutboxStore {
  private readonly c: Collections;
  private readonly claimMs: number;
  private readonly batchSize: number;

  constructor(collections: Collections, claimMs = 30_000, batchSize = 100) {
    this.c = collections;
    this.claimMs = claimMs;
    this.batchSize = batchSize;
  }

  async relayBatch(broker: Broker): Promise<{ published: number; more: boolean }> {
    let published = 0;
    while (published < this.batchSize) {
      const now = new Date();
      const doc = await this.c.outbox.findOneAndUpdate(
        { claimed_until: { $lte: now } },
        { $set: { claimed_until: new Date(now.getTime() + this.claimMs) }, $inc: { attempts: 1 } },
        { sort: { created_at: 1 }, returnDocument: 'after' },
      );
      if (!doc) return { published, more: false };
      try {
        await broker.publish(doc.exchange, doc.message);
        await this.c.outbox.deleteOne({ _id: doc._id });
        published++;
      } catch (err) {
        await this.c.outbox.updateOne(
          { _id: doc._id },
          {
            $set: { last_error: String((err as Error).message), claimed_until: new Date(Date.now() + 2_000) },
          },
        );
        throw err;
      }
    }
    return { published, more: true };
  }
}
