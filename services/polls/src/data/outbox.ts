import type { Envelope } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import type { Broker } from '@fieldhouse/messaging';
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

/** Writes a message to the outbox collection (published by {@link MongoOutboxRelay}). */
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

export interface MongoOutboxRelayOptions {
  collections: Collections;
  broker: Broker;
  logger: Logger;
  intervalMs?: number;
  /** How long a claim lasts (ms); another relay may take the message after it. */
  claimMs?: number;
}

/**
 * Relays the MongoDB outbox to RabbitMQ, oldest first. Without transactions or `SKIP LOCKED`
 * (FerretDB), each message is claimed with an atomic `findOneAndUpdate` on `claimed_until`,
 * published with a publisher confirm, then deleted. A crash between the confirm and the delete
 * publishes it again: at-least-once, and the mail worker sends once per message id.
 */
export class MongoOutboxRelay {
  private readonly o: MongoOutboxRelayOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(opts: MongoOutboxRelayOptions) {
    this.o = opts;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Relays soon (call after writing to the outbox). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Publishes every message that is not claimed; resolves with how many were published. */
  async drain(): Promise<number> {
    const { collections: c, broker, claimMs = 30_000 } = this.o;
    let published = 0;
    for (;;) {
      const now = new Date();
      const doc = await c.outbox.findOneAndUpdate(
        { claimed_until: { $lte: now } },
        { $set: { claimed_until: new Date(now.getTime() + claimMs) }, $inc: { attempts: 1 } },
        { sort: { created_at: 1 }, returnDocument: 'after' },
      );
      if (!doc) return published;
      try {
        await broker.publish(doc.exchange, doc.message);
        await c.outbox.deleteOne({ _id: doc._id });
        published++;
      } catch (err) {
        await c.outbox.updateOne(
          { _id: doc._id },
          {
            $set: { last_error: String((err as Error).message), claimed_until: new Date(Date.now() + 2_000) },
          },
        );
        throw err;
      }
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.o.logger.warn('outbox relay failed; will retry', { err });
        })
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          const next = this.again ? 0 : (this.o.intervalMs ?? 1000);
          this.again = false;
          this.schedule(next);
        });
    }, ms);
    this.timer.unref();
  }
}
