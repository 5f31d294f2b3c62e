import { tooManyRequests } from '@fieldhouse/problem';

/** Caps on open event streams (docs/identity.md, "Live streams"). */
export interface StreamCapsConfig {
  /** Open streams one client address may hold on this gateway replica. */
  perAddress: number;
  /** Open streams one signed-in user may hold on this gateway replica. */
  perUser: number;
  /** Open streams on this gateway replica in all. */
  total: number;
  /** Seconds a refused client is told to wait (`Retry-After`). */
  retryAfterSeconds: number;
}

/**
 * Counts the long-lived event streams (SSE) each client holds open through this gateway
 * replica and refuses one more above a cap: 429 `too_many_streams` with `Retry-After`. Counts
 * live in memory: a stream belongs to the replica it is connected to, and its count goes when
 * its connection does (a crashed replica takes its streams and their counts with it).
 */
export class StreamCaps {
  private readonly config: StreamCapsConfig;
  private readonly byAddress = new Map<string, number>();
  private readonly byUser = new Map<number, number>();
  private open = 0;

  constructor(config: StreamCapsConfig) {
    this.config = config;
  }

  /**
   * Takes a place for one stream of `address` (and `userId` when signed in); returns the
   * function that gives it back (call it once, when the stream's connection closes).
   * @throws ProblemError 429 `too_many_streams` above a cap, naming which.
   */
  acquire(address: string, userId: number | null): () => void {
    const { perAddress, perUser, total, retryAfterSeconds } = this.config;
    const refuse = (which: string, cap: number) =>
      tooManyRequests(
        `Too many open live streams ${which} (at most ${cap}). Close one and retry.`,
        retryAfterSeconds,
        { code: 'too_many_streams', extensions: { limit: cap } },
      );
    if (this.open >= total) throw refuse('on this server', total);
    if ((this.byAddress.get(address) ?? 0) >= perAddress) throw refuse('from this address', perAddress);
    if (userId !== null && (this.byUser.get(userId) ?? 0) >= perUser) throw refuse('for this user', perUser);
    this.open++;
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    if (userId !== null) this.byUser.set(userId, (this.byUser.get(userId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      decrement(this.byAddress, address);
      if (userId !== null) decrement(this.byUser, userId);
    };
  }
}

function decrement<K>(map: Map<K, number>, key: K): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
