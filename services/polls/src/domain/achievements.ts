import { hourOf } from './ids.ts';
import type { CounterSnapshot, PollDoc } from './types.ts';

/** One achievement of the results: a milestone and when it was reached. */
export interface Achievement {
  key: string;
  title: string;
  description: string;
  /** ISO 8601 UTC time the milestone was reached. */
  achieved_at: string;
}

/** Vote milestones: the time is the `created_at` of the n-th counted vote. */
const VOTE_MILESTONES = [
  { key: 'first_vote', n: 1, title: 'First vote', description: 'The poll received its first vote.' },
  { key: 'votes_10', n: 10, title: '10 votes', description: 'The poll reached 10 votes.' },
  { key: 'votes_100', n: 100, title: '100 votes', description: 'The poll reached 100 votes.' },
  { key: 'votes_1000', n: 1000, title: '1,000 votes', description: 'The poll reached 1,000 votes.' },
] as const;

/** Comments needed for "Most discussed"; its time is the `created_at` of that comment. */
const MOST_DISCUSSED_COMMENTS = 10;

/**
 * The milestone that a counter change reaching `count` (the counters' value right after it, read
 * in the same atomic step) makes: the vote or comment that took the count to a milestone's n is
 * its n-th, so its time is the milestone's. Null when `count` is no milestone.
 */
export function milestoneAt(of: 'votes' | 'comments', count: number): string | null {
  if (of === 'comments') return count === MOST_DISCUSSED_COMMENTS ? 'most_discussed' : null;
  return VOTE_MILESTONES.find((m) => m.n === count)?.key ?? null;
}

/** Milestones reached per the counters but not yet recorded in the poll document. */
export function missingMilestones(
  poll: PollDoc,
  s: CounterSnapshot,
): Array<{ key: string; n: number; of: 'votes' | 'comments' }> {
  const out: Array<{ key: string; n: number; of: 'votes' | 'comments' }> = [];
  for (const m of VOTE_MILESTONES)
    if (s.total >= m.n && !poll.achievements[m.key]) out.push({ key: m.key, n: m.n, of: 'votes' });
  if (s.comments >= MOST_DISCUSSED_COMMENTS && !poll.achievements.most_discussed)
    out.push({ key: 'most_discussed', n: MOST_DISCUSSED_COMMENTS, of: 'comments' });
  return out;
}

/**
 * The achievements list: the recorded milestones, then `trending` while the current UTC hour
 * has more votes than the hour before (its time is the start of the current hour).
 */
export function achievementsOf(poll: PollDoc, s: CounterSnapshot, now = new Date()): Achievement[] {
  const list: Achievement[] = [];
  for (const m of VOTE_MILESTONES) {
    const at = poll.achievements[m.key];
    if (at) list.push({ key: m.key, title: m.title, description: m.description, achieved_at: at });
  }
  if (poll.achievements.most_discussed)
    list.push({
      key: 'most_discussed',
      title: 'Most discussed',
      description: `The poll received ${MOST_DISCUSSED_COMMENTS} comments.`,
      achieved_at: poll.achievements.most_discussed,
    });
  const current = hourOf(now);
  const previous = hourOf(new Date(now.getTime() - 3_600_000));
  if ((s.hours[current] ?? 0) > (s.hours[previous] ?? 0))
    list.push({
      key: 'trending',
      title: 'Trending',
      description: 'More votes this hour than in the hour before.',
      achieved_at: current,
    });
  return list;
}
