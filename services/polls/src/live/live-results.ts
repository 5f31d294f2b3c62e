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
  private readonly voteIntervalMs: number;
  /** Polls whose vote notices are being spaced out; `dirty`: a vote came since the last one. */
  private readonly spacing = new Map<string, { dirty: boolean; timer: NodeJS.Timeout }>();
  private closed = false;

  /** @param voteIntervalMs least time between two vote notices of one poll from this process. */
  constructor(redis: Redis, prefix: string, logger: Logger, voteIntervalMs = 100) {
    this.redis = redis;
    this.prefix = prefix;
    this.logger = logger;
    this.voteIntervalMs = voteIntervalMs;
  }

  private channel(pollId: string): string {
    return `${this.prefix}live:${pollId}`;
  }

  /** Announces at once that a poll changed (closed, reopened, deleted). */
  async publish(pollId: string): Promise<void> {
    await this.redis.publish(this.channel(pollId), '1');
  }

  /**
   * Announces a counted vote: at once when the poll had no vote notice in the last
   * `voteIntervalMs`, else once at the end of that interval for every vote that came meanwhile.
   * Viewers get at most one results event per interval and poll from each replica, however
   * fast the votes come, and always one after the last vote. Never throws (a failed notice is
   * logged: the next one carries the change).
   */
  voteCounted(pollId: string): void {
    if (this.closed) return;
    const spaced = this.spacing.get(pollId);
    if (spaced) {
      spaced.dirty = true;
      return;
    }
    this.notify(pollId);
    this.space(pollId);
  }

  private space(pollId: string): void {
    const entry = {
      dirty: false,
      timer: setTimeout(() => {
        if (!entry.dirty) {
          this.spacing.delete(pollId);
          return;
        }
        this.notify(pollId);
        this.space(pollId);
      }, this.voteIntervalMs),
    };
    entry.timer.unref();
    this.spacing.set(pollId, entry);
  }

  private notify(pollId: string): void {
    this.publish(pollId).catch((err: unknown) => this.logger.warn('live publish failed', { err }));
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
    this.closed = true;
    for (const { timer } of this.spacing.values()) clearTimeout(timer);
    this.spacing.clear();
    if (!this.subscriber) return;
    const sub = await this.subscriber.catch(() => undefined);
    await sub?.close().catch(() => undefined);
  }
}
