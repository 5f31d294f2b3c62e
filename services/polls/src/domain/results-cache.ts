import { defineCounter } from '@fieldhouse/http';
import type { CounterSnapshot } from './types.ts';
import type { CommentView } from './views.ts';
import type { PollDoc } from './types.ts';

/** Results ready to send: the JSON of spec 2.2's `data`, and the GET answer built around it. */
export interface RenderedResults {
  /** JSON of the results object (spec 2.2 `data`); the SSE `results` event sends it. */
  dataJson: string;
  /** UTF-8 body of `GET /polls/{poll_id}/results`: `{"data": ..., "message": "Poll results."}`. */
  body: Buffer;
  /** ETag of `body`, set by the HTTP layer the first time it sends it, reused afterwards. */
  etag?: string;
}

/**
 * One poll's parsed results inputs, valid while Redis holds exactly the same poll JSON, recent
 * comments JSON and counters state (`gen:rev`). Treat every field as read-only: concurrent
 * requests share it.
 */
export interface ResultsEntry {
  pollJson: string;
  recentJson: string;
  countersState: string;
  poll: PollDoc;
  recent: CommentView[];
  snapshot: CounterSnapshot;
  /**
   * The results as every reader with full statistics sees them (owner, or `show_stats_public`),
   * once computed, and until when (epoch ms) they hold without any change in Redis: the next
   * UTC hour (`trending`), or `starts_at`/`ends_at` when sooner (the poll's status).
   */
  full?: { rendered: RenderedResults; validUntil: number };
}

const reads = defineCounter(
  'polls_results_reads_total',
  'Results reads (GET and live pushes) by source: cache (nothing changed) or computed.',
  ['source'],
);

/** Counts a results read by its source (`polls_results_reads_total` on /metrics). */
export const countResultsRead = (source: 'cache' | 'computed') => reads.inc({ source });

/**
 * Parsed results inputs per poll, in this process (docs/polls.md, "Results cache"). Nothing is
 * trusted without a check: every read asks Redis for the current inputs (one round trip) and
 * uses an entry only when they are identical, so a change made by any replica is seen by the
 * next read. At most `maxPolls` entries; the oldest is dropped first.
 */
export class ResultsCache {
  private readonly entries = new Map<string, ResultsEntry>();
  private readonly maxPolls: number;

  constructor(maxPolls = 1000) {
    this.maxPolls = maxPolls;
  }

  get(pollId: string): ResultsEntry | undefined {
    return this.entries.get(pollId);
  }

  set(pollId: string, entry: ResultsEntry): void {
    this.entries.delete(pollId);
    this.entries.set(pollId, entry);
    if (this.entries.size > this.maxPolls) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(pollId: string): void {
    this.entries.delete(pollId);
  }
}

/**
 * Until when (epoch ms) the full results computed at `now` stay right without a change in
 * Redis: the start of the next UTC hour (the `trending` achievement compares this hour with the
 * one before), or the poll's `starts_at` or `ends_at` when one comes sooner (its `status`).
 */
export function fullResultsValidUntil(poll: PollDoc, now: number): number {
  let until = (Math.floor(now / 3_600_000) + 1) * 3_600_000;
  for (const t of [poll.settings.starts_at, poll.settings.ends_at]) {
    const at = t ? Date.parse(t) : NaN;
    if (at > now && at < until) until = at;
  }
  return until;
}
