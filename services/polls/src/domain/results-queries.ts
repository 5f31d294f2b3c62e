import type { ServerResponse } from 'node:http';
import type { Caller } from '@fieldhouse/internal-auth';
import { notFound } from '@fieldhouse/problem';
import type { PollsContext } from './context.ts';
import { findPoll } from './manage.ts';
import { readResults } from './results.ts';
import type { RenderedResults } from './results-cache.ts';
import { readerOf } from './voter.ts';

/** Command of {@link getResults}: the poll and who reads (with an anonymous reader's fingerprint). */
export interface GetResults {
  pollId: string;
  caller: Caller;
  /** `voter_fingerprint` of an anonymous reader (up to 200 characters), to show their own vote. */
  fingerprint: string | undefined;
}

/**
 * `GET /polls/{poll_id}/results` (spec 2.2, "results response"): the results as the reader may
 * see them, rendered as the whole answer `{data: results, message}` (docs/polls.md, "Results";
 * a cached rendering when nothing changed: domain/results.ts, `readResults`).
 * @throws ProblemError 404 `not_found` when no poll has this id.
 */
export async function getResults(ctx: PollsContext, command: GetResults): Promise<RenderedResults> {
  const results = await readResults(ctx, command.pollId, readerOf(command.caller, command.fingerprint));
  if (!results) throw notFound('No poll has this id.');
  return results;
}

/** Command of {@link watchResults}: as {@link GetResults}, and how the stream starts. */
export interface WatchResults extends GetResults {
  /**
   * Sends the stream's status and headers once the poll is known; returns the response to
   * stream the events to, or null when the request wants no body (HEAD).
   */
  start: () => ServerResponse | null;
}

/**
 * `GET /polls/{poll_id}/results/stream` (docs/polls.md, "Live results"): once the poll is known
 * to exist, starts the Server-Sent Events answer and hands it to the live-results streams
 * (`ctx.streams`), which send a `results` event at once and after each change.
 * @throws ProblemError 404 `not_found` when no poll has this id (before anything is sent).
 */
export async function watchResults(ctx: PollsContext, command: WatchResults): Promise<void> {
  await findPoll(ctx, command.pollId);
  const reader = readerOf(command.caller, command.fingerprint);
  const res = command.start();
  if (res) await ctx.streams.open(command.pollId, reader, res);
}
