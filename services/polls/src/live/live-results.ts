import type { Logger } from '@fieldhouse/logger';
import type { Redis } from '../data/redis.ts';

type Listener = () => void;

/**
 * Live result notifications over Redis pub/sub, so every replica's SSE clients hear about a
 * vote counted on any replica. One subscriber connection per process, created on first use;
 * one channel per poll (`<prefix>live:<poll id>`), subscribed while a client listens.
 */
export class LiveResults {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly logger: Logger;
  private subscriber: Promise<Redis> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(redis: Redis, prefix: string, logger: Logger) {
    this.redis = redis;
    this.prefix = prefix;
    this.logger = logger;
  }

  private channel(pollId: string): string {
    return `${this.prefix}live:${pollId}`;
  }

  /** Announces that the results of a poll changed (after a counted vote). */
  async publish(pollId: string): Promise<void> {
    await this.redis.publish(this.channel(pollId), '1');
  }

  private connect(): Promise<Redis> {
    this.subscriber ??= (async () => {
      const sub = this.redis.duplicate();
      sub.on('error', (err: Error) => this.logger.warn('redis subscriber error', { error: err.message }));
      await sub.connect();
      return sub;
    })();
    return this.subscriber;
  }

  /** Calls `listener` on each change of the poll's results; resolves with an unsubscribe function. */
  async subscribe(pollId: string, listener: Listener): Promise<() => Promise<void>> {
    const sub = await this.connect();
    let set = this.listeners.get(pollId);
    if (!set) {
      set = new Set();
      this.listeners.set(pollId, set);
      const listeners = set;
      await sub.subscribe(this.channel(pollId), () => {
        for (const l of listeners) l();
      });
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(pollId) === set) {
        this.listeners.delete(pollId);
        await sub.unsubscribe(this.channel(pollId)).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    if (!this.subscriber) return;
    const sub = await this.subscriber.catch(() => undefined);
    await sub?.close().catch(() => undefined);
  }
}
