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
 * The results as every reader with full statistics sees them, computed from one counters state:
 * the rendering, until when (epoch ms) it holds without any change in Redis (the next UTC hour
 * for `trending`, or `starts_at`/`ends_at` when sooner: the poll's status), and when the Redis
 * read it was computed from began (epoch ms): it shows every change counted before `readAt`.
 */
export interface FullResults {
  rendered: RenderedResults;
  validUntil: number;
  readAt: number;
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
  /** The full results of this state (owner, or everyone the visibility allows), once computed. */
  full?: FullResults;
  /**
   * The full results of an earlier counters state of the same poll JSON and recent comments
   * (carried over when only the counters moved): what readers may be given, within the
   * staleness bound, while this state's are being computed ({@link ResultsCache.servable}).
   */
  stale?: FullResults;
}

/** A recompute of one poll's full results in flight in this process (single flight). */
interface Refresh {
  /** When its Redis read began (epoch ms): its answer shows every change counted before. */
  readAt: number;
  /** Its rendering; undefined when it failed or did not give full results. */
  done: Promise<RenderedResults | undefined>;
}

const reads = defineCounter(
  'polls_results_reads_total',
  'Results reads (GET and live pushes) by source: cache (nothing changed) or computed.',
  ['source'],
);

/**
 * Counts a results read by its source (`polls_results_reads_total` on /metrics): `cache`
 * (nothing changed), `stale` (an earlier state's full results, within the staleness bound, while
 * this process recomputes them), `joined` (the answer of the recompute in flight) or `computed`.
 */
export const countResultsRead = (source: 'cache' | 'stale' | 'joined' | 'computed') => reads.inc({ source });

/**
 * Parsed results inputs per poll, in this process (docs/polls.md, "Results cache"). Nothing is
 * trusted without a check: every read asks Redis for the current inputs (one round trip) and
 * uses an entry only when the poll JSON and the recent comments are identical, so an edit, a
 * close or a comment made by any replica is seen by the next read. At most `maxPolls` entries;
 * the oldest is dropped first.
 *
 * Counter changes (votes, reactions) get **single-flight recomputes with bounded staleness**
 * (docs/polls.md, "Freshness while votes arrive"): when the counters moved, the first
 * full-statistics reader of this process computes the new results ({@link beginRefresh}); while
 * it does, other full-statistics readers get the latest full results computed before, if their
 * Redis read began at most `maxStaleMs` before the reader's ({@link servable}), else wait for the
 * recompute in flight when it began within that bound, else compute their own. A reader that
 * finds no recompute in flight always computes: with one client at a time, every read shows
 * every change counted before it.
 */
export class ResultsCache {
  private readonly entries = new Map<string, ResultsEntry>();
  private readonly refreshes = new Map<string, Refresh>();
  private readonly maxPolls: number;
  /** Largest age (ms) of the full results a reader may be given while they are recomputed. */
  readonly maxStaleMs: number;

  /** `maxStaleMs`: `RESULTS_MAX_STALE_MS` (default 250; domain/context.ts, DEFAULT_POLLS_SETTINGS). */
  constructor(maxPolls = 1000, maxStaleMs = 250) {
    this.maxPolls = maxPolls;
    this.maxStaleMs = maxStaleMs;
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
    this.refreshes.delete(pollId);
  }

  /**
   * Whether a read of this poll's results that began at or after `readAt - maxStaleMs` is in
   * flight in this process (its answer may be shared: {@link servable}).
   */
  refreshing(pollId: string, readAt: number): boolean {
    const refresh = this.refreshes.get(pollId);
    return refresh !== undefined && refresh.readAt >= readAt - this.maxStaleMs;
  }

  /**
   * What a full-statistics reader whose Redis read began at `readAt` may be given when Redis
   * still holds `entry`'s poll JSON and recent comments and its counters are in `countersState`:
   * the newest full results computed from a read that began at or after `readAt - maxStaleMs`
   * (and still valid at `readAt`), as `{ rendered, current }` (`current`: of `countersState`
   * itself); else the read in flight when it began within that bound, as `{ join }`; else
   * undefined (the reader reads and computes its own). Never anything older than the bound.
   */
  servable(
    entry: ResultsEntry,
    pollId: string,
    countersState: string,
    readAt: number,
  ):
    | { rendered: RenderedResults; current: boolean }
    | { join: Promise<RenderedResults | undefined> }
    | undefined {
    const oldest = readAt - this.maxStaleMs;
    const usable = (f: FullResults | undefined) => f && f.readAt >= oldest && readAt < f.validUntil;
    const same = countersState === entry.countersState;
    if (same && entry.full && readAt < entry.full.validUntil)
      return { rendered: entry.full.rendered, current: true };
    const earlier = same ? entry.stale : (entry.full ?? entry.stale);
    if (usable(earlier)) return { rendered: earlier!.rendered, current: false };
    const refresh = this.refreshes.get(pollId);
    if (refresh && refresh.readAt >= oldest) return { join: refresh.done };
    return undefined;
  }

  /**
   * Records that a full-statistics reader reads and, if the counters moved, recomputes the poll's
   * results from a Redis read that began at `readAt` (the single flight others share,
   * {@link servable}); returns the function that ends it with the full results (undefined: none,
   * and those waiting read on their own). A newer read replaces an older one.
   */
  beginRefresh(pollId: string, readAt: number): (rendered: RenderedResults | undefined) => void {
    let finish!: (rendered: RenderedResults | undefined) => void;
    const refresh: Refresh = { readAt, done: new Promise((resolve) => (finish = resolve)) };
    this.refreshes.set(pollId, refresh);
    return (rendered) => {
      if (this.refreshes.get(pollId) === refresh) this.refreshes.delete(pollId);
      finish(rendered);
    };
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
