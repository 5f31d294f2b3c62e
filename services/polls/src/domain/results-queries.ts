import { requireAccess } from './access.ts';
import type { PollsContext, ResultsSink } from './context.ts';
import { problems } from './problems.ts';
import { readResults } from './results.ts';
import type { RenderedResults } from './results-cache.ts';
import type { Actor } from './types.ts';
import { readerOf } from './vote-rules.ts';

/** Command of {@link getResults}: the poll and who reads (with an anonymous reader's fingerprint). */
export interface GetResults {
  pollId: string;
  actor: Actor;
  /** `voter_fingerprint` of an anonymous reader (up to 200 characters), to show their own vote. */
  fingerprint: string | undefined;
}

/**
 * `GET /polls/{poll_id}/results` (spec 2.2, "results response"): the results as the reader may
 * see them, rendered as the whole answer `{data: results, message}` (docs/polls.md, "Results";
 * a cached rendering when nothing changed: domain/results.ts, `readResults`).
 *
 * Results are `poll.read`, which anyone may do on any poll (domain/access.ts): the only refusal
 * is an unknown poll, which `readResults` tells in the same Redis round trip as the results, so
 * this hot path skips `requireAccess` and its poll lookup.
 * @throws ProblemError `not_found` when no poll has this id.
 */
export async function getResults(ctx: PollsContext, command: GetResults): Promise<RenderedResults> {
  const results = await readResults(ctx, command.pollId, readerOf(command.actor, command.fingerprint));
  if (!results) throw problems.notFound({ what: 'poll' });
  return results;
}

/** Command of {@link watchResults}: as {@link GetResults}, and how the stream starts. */
export interface WatchResults extends GetResults {
  /**
   * Starts the answer once the poll is known (the HTTP edge sends its status and headers);
   * returns the sink to stream the events to, or null when the request wants no body (HEAD).
   */
  start: () => ResultsSink | null;
}

/**
 * `GET /polls/{poll_id}/results/stream` (docs/polls.md, "Live results"): once the poll is known
 * to exist, starts the Server-Sent Events answer and hands it to the live-results streams
 * (`ctx.streams`), which send a `results` event at once and after each change.
 * @throws ProblemError 404 `not_found` when no poll has this id (before anything is sent).
 */
export async function watchResults(ctx: PollsContext, command: WatchResults): Promise<void> {
  await requireAccess(ctx, { actor: command.actor, permission: 'poll.read', pollId: command.pollId });
  const reader = readerOf(command.actor, command.fingerprint);
  const sink = command.start();
  if (sink) await ctx.streams.open(command.pollId, reader, sink);
}
