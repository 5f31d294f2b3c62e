import type { PollsContext } from './context.ts';
import { voteDeltas } from './voting.ts';
import { voteCountedMessage, writeWebhookMessage } from './changes.ts';

/** How long a vote may stay reserved before its insert vanished for good (then dropped). */
const ABANDONED_MS = 10 * 60_000;

/** What one reconciliation pass did. */
export interface ReconcileReport {
  /** Reservations looked at (older than the grace period). */
  examined: number;
  /** Votes found in MongoDB and settled (counted now, or counted already by someone else). */
  settled: number;
  /** Reservations whose vote never reached MongoDB (dropped after ABANDONED_MS). */
  dropped: number;
}

/**
 * Counts the votes a crashed writer stored in MongoDB but never counted in Redis (issue #14,
 * "Poll counts drift after a crash"; docs/polls.md, "Counters"): every vote is reserved in the
 * uncounted set before its insert and leaves it in the same atomic step as its counter change,
 * so a reservation older than `graceMs` belongs to a writer that died or lost Redis in between.
 * For each: when the vote is in MongoDB, its deltas are applied with the reservation
 * (Counters.settle: exactly once, whoever gets there first) and its `poll.vote.counted` webhook
 * message is written (once per vote id); when it is not and the
 * reservation is older than 10 minutes, the reservation is dropped. Safe on every replica at
 * once. Resolves what it did.
 */
export async function reconcileVotes(ctx: PollsContext, graceMs: number): Promise<ReconcileReport> {
  const report: ReconcileReport = { examined: 0, settled: 0, dropped: 0 };
  // Reservations left in place (young, vote not in MongoDB yet) are skipped by the offset.
  let kept = 0;
  for (;;) {
    const stale = await ctx.counters.staleReservations(graceMs, kept, 200);
    if (!stale.length) return report;
    const ids = stale.map((r) => r.marker.split('|')[1]!);
    const found = new Map((await ctx.votes.byIds(ids)).map((v) => [v._id, v]));
    for (const reservation of stale) {
      report.examined++;
      const vote = found.get(reservation.marker.split('|')[1]!);
      if (vote) {
        // Its webhook message may not have been written (same id: written once if it was).
        const poll = await ctx.polls.get(vote.poll_id);
        if (poll) await writeWebhookMessage(ctx, voteCountedMessage(poll, vote));
        await ctx.counters.settle(reservation, voteDeltas(vote));
        ctx.live.voteCounted(vote.poll_id);
        report.settled++;
      } else if (reservation.reservedAt < Date.now() - ABANDONED_MS) {
        await ctx.counters.settle(reservation, null);
        report.dropped++;
      } else kept++; // not in MongoDB (yet): its writer may still insert it
    }
  }
}

/**
 * Runs {@link reconcileVotes} now and every `intervalMs` until the returned stop function is
 * called. Failures (Redis or MongoDB away) are logged; the next pass retries.
 */
export function startVoteReconciler(
  ctx: PollsContext,
  opts: { intervalMs: number; graceMs: number },
): () => void {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const r = await reconcileVotes(ctx, opts.graceMs);
      if (r.settled || r.dropped) ctx.logger.info('uncounted votes reconciled', { ...r });
    } catch (err) {
      ctx.logger.warn('vote reconciliation failed', { err });
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(() => void pass(), opts.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
