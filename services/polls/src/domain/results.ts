import { achievementsOf, milestoneAt, missingMilestones } from './achievements.ts';
import { analyticsOf } from './analytics.ts';
import type { PollsContext } from './context.ts';
import {
  countResultsRead,
  fullResultsValidUntil,
  type FullResults,
  type RenderedResults,
} from './results-cache.ts';
import { REACTION_TYPES, type CounterSnapshot, type PollDoc, type Voter, type VoteDoc } from './types.ts';
import { resultsVisibleBeforeLookup } from './visibility.ts';
import { commentView, pollView, sectionsView, type CommentView } from './views.ts';
import { hasKinds, sectionResults } from './section-kinds.ts';

/** Option id to vote count, every option of the poll present (0 without votes). */
export function optionCounts(poll: PollDoc, s: CounterSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const section of poll.sections) for (const o of section.options) out[o.id] = s.options[o.id] ?? 0;
  return out;
}

/** Reaction type to count, all eight types present. */
export function reactionsSummary(s: CounterSnapshot): Record<string, number> {
  return Object.fromEntries(REACTION_TYPES.map((t) => [t, s.reactions[t] ?? 0]));
}

/**
 * Whether the caller sees the full statistics (domain/visibility.ts, `resultsVisibleTo`): true
 * or false, or `'if_voted'` when it depends on whether they have a counted vote (`after_vote`).
 */
export const seesStats = (poll: PollDoc, voter: Voter | null, now = Date.now()): boolean | 'if_voted' =>
  resultsVisibleBeforeLookup(
    poll,
    { owner: voter?.userId != null && voter.userId === poll.owner_id, identified: voter !== null },
    now,
  );

/**
 * The caller's view of the results: whether they see full statistics, and their latest counted
 * vote when they may not see everything without it (null: none, or not needed). Reads MongoDB
 * only then.
 */
async function viewOf(
  ctx: PollsContext,
  poll: PollDoc,
  voter: Voter | null,
): Promise<{ full: boolean; mine: VoteDoc | null }> {
  const sees = seesStats(poll, voter);
  if (sees === true || !voter) return { full: sees === true, mine: null };
  const mine = await ctx.votes.latestByVoter(poll._id, voter.key);
  return { full: sees === 'if_voted' && mine !== null, mine };
}

/** The five newest comments from MongoDB; cached in Redis until a comment is added or deleted. */
async function loadRecentComments(ctx: PollsContext, pollId: string): Promise<CommentView[]> {
  const docs = await ctx.comments.newest(pollId, 5);
  const list = docs.map(commentView);
  await ctx.results.storeRecent(pollId, JSON.stringify(list));
  return list;
}

/** Renders results: the JSON of `data` and the GET answer around it (spec 2.2 envelope). */
function render(data: Awaited<ReturnType<typeof buildResults>>): RenderedResults {
  const dataJson = JSON.stringify(data);
  return { dataJson, body: Buffer.from(`{"data":${dataJson},"message":"Poll results."}`) };
}

/** How {@link readResults} may answer. */
interface ReadOptions {
  /**
   * Never an earlier state's results, nor another read's recompute: what a live-results push
   * needs (the last push after a burst of votes must show the last vote).
   */
  fresh?: boolean;
}

/**
 * The results of a poll for a reader ({@link buildResults}), rendered, or null when no poll has
 * this id. One Redis round trip asks for the cached poll, its recent comments and its counters
 * (the whole hash only when it changed since this process last parsed it: {@link ResultsCache});
 * when nothing changed and the reader sees full statistics, the answer computed last time is
 * sent again (until the next hour or the poll's opening or closing time). Whatever is missing
 * is rebuilt or read from MongoDB once the poll is known to exist, so unknown ids create nothing.
 *
 * Single flight while votes arrive (docs/polls.md, "Freshness while votes arrive"): a
 * full-statistics reader that finds another read of this process already reading and computing
 * the poll's results asks Redis for the poll, comments and counters' state only (not the whole
 * hash) and, when the poll and comments are unchanged, is given the newest full results whose
 * read began at most `RESULTS_MAX_STALE_MS` before its own, or waits for that read's answer; an
 * edit, a close or a comment is always shown at once. `options.fresh`: never shared.
 */
export async function readResults(
  ctx: PollsContext,
  pollId: string,
  reader: Voter | null,
  options: ReadOptions = {},
): Promise<RenderedResults | null> {
  const readAt = Date.now();
  const cache = ctx.resultsCache;
  const known = cache.get(pollId);
  const seesAll = known !== undefined && seesStats(known.poll, reader, readAt) === true;
  if (seesAll && !options.fresh && cache.refreshing(pollId, readAt)) {
    const shared = await sharedResults(ctx, pollId, reader, readAt);
    if (shared) return shared;
  }
  // This read may recompute the full results: the single flight that others share meanwhile.
  const finish = seesAll ? cache.beginRefresh(pollId, readAt) : undefined;
  let answer: { rendered: RenderedResults; full: boolean } | null = null;
  try {
    answer = await currentResults(ctx, pollId, reader, readAt);
    return answer?.rendered ?? null;
  } finally {
    finish?.(answer?.full ? answer.rendered : undefined);
  }
}

/**
 * A full-statistics reader's answer while another read of this process recomputes the results
 * ({@link ResultsCache.servable}), from one Redis round trip that skips the counter hash; undefined
 * when the poll or its comments changed, the reader no longer sees everything, or nothing within
 * the staleness bound is at hand (the caller then reads as usual).
 */
async function sharedResults(
  ctx: PollsContext,
  pollId: string,
  reader: Voter | null,
  readAt: number,
): Promise<RenderedResults | undefined> {
  const raw = await ctx.results.read(pollId, '', false);
  const entry = ctx.resultsCache.get(pollId);
  if (
    !entry ||
    raw.countersState === null ||
    raw.pollJson !== entry.pollJson ||
    raw.recentJson !== entry.recentJson
  )
    return undefined;
  if (seesStats(entry.poll, reader, readAt) !== true) return undefined;
  const shared = ctx.resultsCache.servable(entry, pollId, raw.countersState, readAt);
  if (!shared) return undefined;
  if ('rendered' in shared) {
    countResultsRead(shared.current ? 'cache' : 'stale');
    return shared.rendered;
  }
  const joined = await shared.join;
  if (joined) countResultsRead('joined');
  return joined;
}

/**
 * The results as Redis (and MongoDB when needed) hold them now, for a reader whose read began at
 * `readAt`, and whether they are the full results; null for an unknown poll. Keeps the parsed
 * inputs and the full results in the cache.
 */
async function currentResults(
  ctx: PollsContext,
  pollId: string,
  reader: Voter | null,
  readAt: number,
): Promise<{ rendered: RenderedResults; full: boolean } | null> {
  const cache = ctx.resultsCache;
  const known = cache.get(pollId);
  const raw = await ctx.results.read(pollId, known?.countersState ?? '');
  const snapshot = raw.counters
    ? raw.counters
    : raw.countersState !== null && raw.countersState === known?.countersState
      ? known.snapshot
      : undefined;
  if (raw.pollJson === null || raw.recentJson === null || raw.countersState === null || !snapshot) {
    // Something to rebuild or read from MongoDB: no cache entry this time.
    const poll = raw.pollJson ? (JSON.parse(raw.pollJson) as PollDoc) : await ctx.polls.load(pollId);
    if (!poll) {
      cache.delete(pollId);
      return null;
    }
    const [s, recent] = await Promise.all([
      snapshot ?? ctx.counters.rebuild(pollId),
      raw.recentJson ? (JSON.parse(raw.recentJson) as CommentView[]) : loadRecentComments(ctx, pollId),
    ]);
    countResultsRead('computed');
    const view = await viewOf(ctx, poll, reader);
    return { rendered: render(await buildResults(ctx, poll, s, recent, view)), full: false };
  }
  let entry = cache.get(pollId);
  if (
    !entry ||
    entry.pollJson !== raw.pollJson ||
    entry.recentJson !== raw.recentJson ||
    entry.countersState !== raw.countersState
  ) {
    const same =
      entry && entry.pollJson === raw.pollJson && entry.recentJson === raw.recentJson ? entry : null;
    entry = {
      pollJson: raw.pollJson,
      recentJson: raw.recentJson,
      countersState: raw.countersState,
      poll: same ? same.poll : (JSON.parse(raw.pollJson) as PollDoc),
      recent: same ? same.recent : (JSON.parse(raw.recentJson) as CommentView[]),
      snapshot,
      // Only the counters moved: the last full results stay servable within the bound.
      ...(same ? { stale: newest(same.full, same.stale) } : {}),
    };
    cache.set(pollId, entry);
  }
  const view = await viewOf(ctx, entry.poll, reader);
  const full = view.full;
  if (full && entry.full && readAt < entry.full.validUntil) {
    countResultsRead('cache');
    return { rendered: entry.full.rendered, full };
  }
  countResultsRead('computed');
  const rendered = render(await buildResults(ctx, entry.poll, entry.snapshot, entry.recent, view));
  // Milestones still to record change the poll: never keep results computed without them.
  if (
    full &&
    !missingMilestones(entry.poll, entry.snapshot).length &&
    !(entry.full && entry.full.readAt > readAt)
  )
    entry.full = { rendered, validUntil: fullResultsValidUntil(entry.poll, readAt), readAt };
  return { rendered, full: full && !missingMilestones(entry.poll, entry.snapshot).length };
}

/** The one of two full results read last (undefined when neither). */
const newest = (a: FullResults | undefined, b: FullResults | undefined) =>
  a && b ? (a.readAt >= b.readAt ? a : b) : (a ?? b);

/**
 * Records the milestone a counted vote or added comment reached, if any, with that item's time
 * (`count`: the counter right after the item, from the same atomic step). Resolves at once when
 * `count` is no milestone (all but five counts of a poll); at a milestone, once it is written,
 * so that the results event announcing that vote already shows it. Never rejects: a failure is
 * logged and leaves the milestone to {@link recordMilestones}.
 */
export async function recordReachedMilestone(
  ctx: PollsContext,
  poll: PollDoc,
  of: 'votes' | 'comments',
  count: number,
  at: string,
): Promise<void> {
  const key = milestoneAt(of, count);
  if (!key || poll.achievements[key]) return;
  await ctx.polls
    .recordAchievement(poll._id, key, at)
    .catch((err: unknown) => ctx.logger.warn('recording a milestone failed', { err, key }));
}

/**
 * Records milestones the counters show as reached but the poll does not have (once each; the
 * fallback when a counter rebuild or a failed write skipped {@link recordReachedMilestone}: it
 * reads the n-th vote or comment); returns the updated poll.
 */
async function recordMilestones(ctx: PollsContext, poll: PollDoc, s: CounterSnapshot): Promise<PollDoc> {
  const missing = missingMilestones(poll, s);
  if (!missing.length) return poll;
  // One reader records them (the others answer without them for now): no thundering herd.
  if (!(await ctx.results.claimMilestones(poll._id))) return poll;
  const achievements = { ...poll.achievements };
  for (const m of missing) {
    const at =
      m.of === 'votes'
        ? await ctx.votes.timeOfNth(poll._id, m.n)
        : await ctx.comments.timeOfNth(poll._id, m.n);
    if (!at) continue;
    await ctx.polls.recordAchievement(poll._id, m.key, at);
    achievements[m.key] = at;
  }
  return { ...poll, achievements };
}

/**
 * The results of spec 2.2 (docs/polls.md, "Results") from a snapshot of the counters and the
 * recent comments, for a caller's view ({@link viewOf}). When the caller may not see the results
 * (docs/polls.md, "Result visibility"; spec 2.2's `show_stats_public: false` for non-owners):
 * `results` has only the options of the caller's own latest vote (each with its count of 1
 * vote, theirs), `analytics` is empty, `achievements` is empty, and `stats_hidden` is true;
 * totals, reactions and comments stay visible.
 */
async function buildResults(
  ctx: PollsContext,
  poll: PollDoc,
  s: CounterSnapshot,
  recent: CommentView[],
  { full, mine }: { full: boolean; mine: VoteDoc | null },
) {
  poll = await recordMilestones(ctx, poll, s);
  const reactions = reactionsSummary(s);
  let results: Record<string, number> = {};
  let myVote: Record<string, string> | null = null;
  if (full) results = optionCounts(poll, s);
  else if (mine) {
    myVote = mine.choices;
    for (const id of mine.option_ids) results[id] = 1;
  }
  return {
    poll: pollView(poll),
    sections: sectionsView(poll),
    results,
    total_votes: s.total,
    unique_voters: s.voters,
    reactions_total: Object.values(reactions).reduce((a, b) => a + b, 0),
    comments_total: s.comments,
    reactions_summary: reactions,
    recent_comments: recent,
    show_stats_public: poll.settings.show_stats_public,
    stats_hidden: !full,
    ...(full ? {} : { my_vote: myVote }),
    analytics: full ? analyticsOf(poll, s) : {},
    achievements: full ? achievementsOf(poll, s) : [],
    // Polls with sections that are not `single` only (docs/polls.md, "Section results").
    ...(hasKinds(poll) ? { section_results: full ? sectionResults(poll, s) : [] } : {}),
  };
}
