import type { PollDoc, PollSettings, ResultsVisibility } from './types.ts';

/**
 * Result visibility (issue 37, part 1; docs/polls.md, "Result visibility"): who sees a poll's
 * counts, analytics, achievements and section results.
 *
 * - `always`: everyone (spec 2.2's `show_stats_public: true`);
 * - `after_vote`: the owner, and a voter once they have a counted vote on the poll (a vote held
 *   for its one-time password is not counted yet); everyone once the poll is closed or ended;
 * - `after_close`: the owner; everyone once the poll is closed by its owner or its `ends_at`
 *   passed;
 * - `owner_only`: the owner only (spec 2.2's `show_stats_public: false`).
 *
 * A viewer who may not see the results gets the same shape with the counts withheld
 * (domain/results.ts, `buildResults`).
 */
export const RESULTS_VISIBILITIES = ['always', 'after_vote', 'after_close', 'owner_only'] as const;

/**
 * The visibility of a poll's results. Polls stored before issue 37 have only
 * `show_stats_public`: true reads as `always`, false as `owner_only` (what it meant then).
 */
export const resultsVisibility = (settings: PollSettings): ResultsVisibility =>
  settings.results_visibility ?? (settings.show_stats_public ? 'always' : 'owner_only');

/** The `show_stats_public` a visibility implies: true exactly for `always` (spec 2.2's meaning). */
export const statsPublicOf = (visibility: ResultsVisibility): boolean => visibility === 'always';

/** Whether the poll is over: closed by its owner, or its `ends_at` passed (`now`: epoch ms). */
function pollOver(poll: PollDoc, now = Date.now()): boolean {
  const end = poll.settings.ends_at;
  return poll.closed || (end !== null && now >= Date.parse(end));
}

/** Who looks at the results: the poll's owner or not, and whether they have a counted vote. */
interface ResultsViewer {
  owner: boolean;
  /** Has at least one counted vote on the poll. */
  voted: boolean;
}

/**
 * The one rule: whether `viewer` sees the poll's results at `now` (epoch ms). Every way
 * results leave the service asks it (the results read and its live stream, the vote answer);
 * webhooks go only to the owner's own subscriptions, who sees everything.
 */
function resultsVisibleTo(poll: PollDoc, viewer: ResultsViewer, now = Date.now()): boolean {
  if (viewer.owner) return true;
  switch (resultsVisibility(poll.settings)) {
    case 'always':
      return true;
    case 'after_vote':
      return viewer.voted || pollOver(poll, now);
    case 'after_close':
      return pollOver(poll, now);
    case 'owner_only':
      return false;
  }
}

/**
 * {@link resultsVisibleTo} before knowing whether the viewer voted: true or false when that
 * does not matter, `'if_voted'` when it does (an `after_vote` poll still open, a viewer who is
 * not its owner but can be told apart: signed in or with a fingerprint). Lets the hot paths
 * skip the vote lookup.
 */
export function resultsVisibleBeforeLookup(
  poll: PollDoc,
  viewer: { owner: boolean; identified: boolean },
  now = Date.now(),
): boolean | 'if_voted' {
  if (resultsVisibleTo(poll, { owner: viewer.owner, voted: false }, now)) return true;
  if (!viewer.identified || !resultsVisibleTo(poll, { owner: viewer.owner, voted: true }, now)) return false;
  return 'if_voted';
}

/**
 * Whether others than the owner are shown who took part (docs/polls.md, "Participants shown to
 * voters"): the owner turned `show_participant_names` on (polls stored before it could be shown
 * hold false: migrations/participant-names.ts), and the poll names its voters by what they chose
 * to give: not an anonymous poll (its ballots name nobody) nor one of invitees (their name is
 * their e-mail address, the owner's to see). `mergeSettings` refuses the combinations; this
 * holds for any stored document.
 */
export const participantNamesShown = (settings: PollSettings): boolean =>
  settings.show_participant_names === true && settings.anonymous !== true && settings.voters !== 'invited';
