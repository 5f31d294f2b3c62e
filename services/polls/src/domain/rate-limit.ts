import { ProblemError } from '@fieldhouse/problem';
import type { PollsContext } from './context.ts';

/**
 * A fixed one-minute window per (action, poll, voter) in Redis (`INCR` + `EXPIRE`).
 * @throws ProblemError 429 with `Retry-After` when the voter exceeded `perMinute`.
 */
export async function limitVoter(
  ctx: PollsContext,
  action: 'comment' | 'reaction',
  pollId: string,
  voterKey: string,
  perMinute: number,
): Promise<void> {
  const key = `${ctx.prefix}rl:${action}:${pollId}:${voterKey}`;
  const [count, , ttl] = (await ctx.redis
    .multi()
    .incr(key)
    .expire(key, 60, 'NX')
    .ttl(key)
    .exec()) as unknown as [number, number, number];
  if (Number(count) > perMinute) {
    const retry = Math.max(1, Number(ttl));
    throw new ProblemError(429, `Too many ${action}s on this poll: try again in ${retry} seconds.`, {
      code: 'rate_limited',
      headers: { 'Retry-After': String(retry) },
    });
  }
}
