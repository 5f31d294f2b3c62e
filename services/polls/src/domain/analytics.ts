import type { CounterSnapshot } from './types.ts';
import type { PollDoc } from './types.ts';

/** The `analytics` object of the results (docs/polls.md, "Analytics"). */
export interface Analytics {
  /** Votes per UTC hour, oldest first, hours without votes left out (last 48 hours with votes). */
  votes_per_hour: Array<{ hour: string; votes: number }>;
  /** Mean of `time_spent` in seconds over votes that reported it, or null. */
  mean_time_spent: number | null;
  /** Median of `time_spent` in seconds (lower median for an even count), or null. */
  median_time_spent: number | null;
  /** Per section: the option with most votes (ties: first in the section), null without votes. */
  /**
   * Per section the option with the most votes (the first in the section's order when several
   * share it) and `tied_option_ids`: every option with that many votes when two or more do
   * (else empty), so a tie is shown as a tie, never as one winner.
   */
  top_options: Array<{
    section_id: string;
    option_id: string | null;
    label: string | null;
    votes: number;
    tied_option_ids: string[];
  }>;
}

/** Computes analytics from the counters only (no vote is read). */
export function analyticsOf(poll: PollDoc, s: CounterSnapshot): Analytics {
  const hours = Object.entries(s.hours)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(-48)
    .map(([hour, votes]) => ({ hour, votes }));
  const times = Object.entries(s.timeSpent)
    .map(([t, n]) => [Number(t), n] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => a[0] - b[0]);
  const count = times.reduce((a, [, n]) => a + n, 0);
  let mean: number | null = null;
  let median: number | null = null;
  if (count > 0) {
    mean = Math.round((times.reduce((a, [t, n]) => a + t * n, 0) / count) * 100) / 100;
    const rank = Math.ceil(count / 2);
    let seen = 0;
    for (const [t, n] of times) {
      seen += n;
      if (seen >= rank) {
        median = t;
        break;
      }
    }
  }
  const top_options = poll.sections.map((section) => {
    let best: { id: string; label: string; votes: number } | null = null;
    for (const o of section.options) {
      const votes = s.options[o.id] ?? 0;
      if (votes > 0 && (!best || votes > best.votes)) best = { id: o.id, label: o.label, votes };
    }
    const tied = best
      ? section.options.filter((o) => (s.options[o.id] ?? 0) === best.votes).map((o) => o.id)
      : [];
    return {
      section_id: section.id,
      option_id: best?.id ?? null,
      label: best?.label ?? null,
      votes: best?.votes ?? 0,
      tied_option_ids: tied.length > 1 ? tied : [],
    };
  });
  return { votes_per_hour: hours, mean_time_spent: mean, median_time_spent: median, top_options };
}
