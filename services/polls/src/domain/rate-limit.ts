import type { PollsContext } from './context.ts';
import { problems } from './problems.ts';

/**
 * At most `perMinute` comments or reactions per voter and poll, in fixed one-minute windows
 * (docs/polls.md: `COMMENTS_PER_MINUTE`, `REACTIONS_PER_MINUTE`).
 * @throws ProblemError `rate_limited` with `Retry-After` (the seconds left in the window, at
 *   least 1) when the voter exceeded `perMinute`.
 */
export async function limitVoter(
  ctx: PollsContext,
  action: 'comment' | 'reaction',
  pollId: string,
  voterKey: string,
  perMinute: number,
): Promise<void> {
  const { count, secondsLeft } = await ctx.rateLimits.hit(action, pollId, voterKey);
  if (count > perMinute) throw problems.rateLimited({ action, seconds: Math.max(1, secondsLeft) });
}
