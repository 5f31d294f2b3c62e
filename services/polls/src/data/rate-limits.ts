import type { Redis } from './redis.ts';

/**
 * Fixed one-minute windows in Redis (`<prefix>rl:<action>:<poll id>:<voter key>`: `INCR`, then
 * `EXPIRE NX` 60 s, then `TTL`, in one round trip).
 */
export class RateLimits {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  /**
   * Counts one more `action` of a voter on a poll in the current window; resolves the count
   * so far (this one included) and the seconds left in the window.
   */
  async hit(
    action: string,
    pollId: string,
    voterKey: string,
  ): Promise<{ count: number; secondsLeft: number }> {
    const key = `${this.prefix}rl:${action}:${pollId}:${voterKey}`;
    const [count, , ttl] = (await this.redis
      .multi()
      .incr(key)
      .expire(key, 60, 'NX')
      .ttl(key)
      .exec()) as unknown as [number, number, number];
    return { count: Number(count), secondsLeft: Number(ttl) };
  }
}
