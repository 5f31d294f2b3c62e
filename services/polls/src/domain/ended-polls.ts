import type { PollsContext } from './context.ts';
import { pollClosedMessage, writeWebhookMessage } from './changes.ts';

/**
 * Announces to webhooks the polls whose `ends_at` passed (docs/webhooks.md, "Area B"): for each
 * open poll with a `poll.closed` subscription whose end was not announced yet, writes
 * `poll.closed` (reason `ended`, the results at that moment) to the outbox, then records the
 * announced `ends_at` on the poll. The message id is derived from the poll and its `ends_at`, so
 * a crash in between, or every replica doing the same at once, still writes one message; an
 * `ends_at` moved later is announced again when it passes. Resolves with how many were written.
 * Polls closed by their owner before their end were announced then and are skipped.
 */
export async function announceEndedPolls(ctx: PollsContext, now = new Date()): Promise<number> {
  let written = 0;
  for (const poll of await ctx.polls.endedUnannounced(now.toISOString(), 100)) {
    const message = await pollClosedMessage(poll, () => ctx.counters.read(poll._id), 'ended');
    await writeWebhookMessage(ctx, message);
    await ctx.polls.markEndAnnounced(poll._id, poll.settings.ends_at!);
    if (message) written++;
  }
  return written;
}

/**
 * Runs {@link announceEndedPolls} every `intervalMs` until the returned stop function is called;
 * a failed pass (MongoDB or Redis away) is logged and the next one retries.
 */
export function startEndedPollsAnnouncer(ctx: PollsContext, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    announceEndedPolls(ctx)
      .then((n) => n && ctx.logger.info('ended polls announced to webhooks', { polls: n }))
      .catch((err: unknown) => ctx.logger.warn('announcing ended polls failed; will retry', { err }))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
