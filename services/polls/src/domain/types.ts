/** Who may vote, react and comment: anyone (`public`) or signed-in users (`authenticated`). */
type Access = 'public' | 'authenticated';

/** Settings of a poll (docs/polls.md, "Settings"). Times are ISO 8601 UTC strings or null. */
export interface PollSettings {
  starts_at: string | null;
  ends_at: string | null;
  /** How many counted votes one voter may cast on the poll (>= 1). */
  max_votes_per_voter: number;
  access: Access;
  require_verification: boolean;
  show_stats_public: boolean;
  allow_comments: boolean;
  allow_reactions: boolean;
}

interface OptionDoc {
  id: string;
  label: string;
}

export interface SectionDoc {
  id: string;
  title: string;
  options: OptionDoc[];
}

/** A poll as stored in the `polls` collection (`_id` is a string id). */
export interface PollDoc {
  _id: string;
  owner_id: number;
  title: string;
  description: string | null;
  sections: SectionDoc[];
  settings: PollSettings;
  closed: boolean;
  closed_at: string | null;
  /** Milestone key to the ISO time it was reached (docs/polls.md, "Achievements"). */
  achievements: Record<string, string>;
  /**
   * The webhook kinds its active subscriptions take (docs/webhooks.md, "Area B"), kept in step
   * by the webhook use cases, so a vote on a poll nobody subscribed to writes no outbox message.
   * Absent: none.
   */
  webhook_kinds?: string[];
  /** The `ends_at` whose passing was announced to webhooks (`poll.closed`, reason `ended`). */
  end_announced?: string;
  created_at: string;
  updated_at: string;
}

/** One counted vote (`votes` collection). `seq` is the n-th counted vote of this voter on this poll. */
export interface VoteDoc {
  _id: string;
  poll_id: string;
  voter_key: string;
  seq: number;
  choices: Record<string, string>;
  option_ids: string[];
  voter_name: string | null;
  /** Seconds the voter spent before voting, as the client reports it. */
  time_spent: number | null;
  user_id: number | null;
  /** UTC hour of the vote (`2025-01-31T14:00:00Z`), for votes per hour. */
  hour: string;
  created_at: string;
  /** The `Idempotency-Key` the vote was sent with, if any (docs/polls.md, "Retrying a vote"). */
  idempotency_key?: string;
  /** True when it was counted after its one-time password (absent otherwise). */
  verified?: true;
}

export const REACTION_TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry', 'fire', 'clap'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** A comment (`comments` collection). `ancestors` lists the parent chain, root first. */
export interface CommentDoc {
  _id: string;
  poll_id: string;
  parent_id: string | null;
  root_id: string;
  ancestors: string[];
  content: string;
  author_name: string | null;
  user_id: number | null;
  voter_key: string;
  created_at: string;
}

/** Who is acting on a poll: a signed-in user, or an anonymous fingerprint with its IP. */
export interface Voter {
  /** `u:<user id>` or `f:<sha256 of fingerprint and IP>`. */
  key: string;
  userId: number | null;
  name: string | null;
  email: string | null;
}

/**
 * Who runs a use case: the principal of the request as the gateway's JWT describes it
 * (`req.caller` satisfies it). `userId` is null for an anonymous actor, whose `ip` (with a
 * fingerprint) identifies them as a voter.
 */
export interface Actor {
  userId: number | null;
  name: string | null;
  email: string | null;
  ip: string | null;
}

/**
 * Live counters of one poll in one Redis hash (docs/polls.md, "Counters"): `total`, `voters`,
 * `comments`, `o:<option id>`, `r:<reaction type>`, `h:<UTC hour>` (votes per hour) and
 * `t:<seconds>` (histogram of time_spent), plus `gen`, the id of the rebuild that created it,
 * and `rev`, bumped by every change (`gen:rev` names one state of the hash: the results cache
 * checks it).
 */
export type CounterFields = Record<string, number>;

/** A snapshot of a poll's counters. */
export interface CounterSnapshot {
  total: number;
  voters: number;
  comments: number;
  options: Record<string, number>;
  reactions: Record<string, number>;
  hours: Record<string, number>;
  /** time_spent in seconds to how many votes reported it. */
  timeSpent: Record<string, number>;
}

/** A vote reserved for counting: its marker in the uncounted set and the generation it saw. */
export interface Reservation {
  /** `<poll id>|<vote id>|<generation>`: the member of the uncounted set. */
  marker: string;
  generation: string;
}
