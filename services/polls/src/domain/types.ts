/** Who may vote, react and comment: anyone (`public`) or signed-in users (`authenticated`). */
type Access = 'public' | 'authenticated';

/** Who sees a poll's results (docs/polls.md, "Result visibility"; domain/visibility.ts). */
export type ResultsVisibility = 'always' | 'after_vote' | 'after_close' | 'owner_only';

/** Settings of a poll (docs/polls.md, "Settings"). Times are ISO 8601 UTC strings or null. */
export interface PollSettings {
  starts_at: string | null;
  ends_at: string | null;
  /** How many counted votes one voter may cast on the poll (>= 1). */
  max_votes_per_voter: number;
  access: Access;
  require_verification: boolean;
  /**
   * Spec 2.2: everyone sees full results. Kept equal to `results_visibility === 'always'`
   * (docs/polls.md, "Result visibility").
   */
  show_stats_public: boolean;
  /** Who sees results (domain/visibility.ts). Absent on polls stored before issue 37: see there. */
  results_visibility?: ResultsVisibility;
  /** Whether participants' names are shown to others than the owner (absent: true). */
  show_participant_names?: boolean;
  allow_comments: boolean;
  allow_reactions: boolean;
  /**
   * Origins allowed to frame the poll's embed page, `/p/{poll_id}/embed` (docs/polls.md,
   * "Embedding"; domain/embed-origins.ts). Absent on polls stored before it: none.
   */
  embed_origins?: string[];
  /**
   * Who may vote (docs/polls.md, "Invited voters"): `anyone` allowed by `access`, or only the
   * `invited`, each with the personal link e-mailed to them (domain/invitees.ts). Absent: anyone.
   */
  voters?: 'anyone' | 'invited';
  /**
   * Ballots keep no link to their voter (docs/polls.md, "Anonymous but verified"): on a poll for
   * invitees, who voted is kept apart from what was chosen. Absent: false.
   */
  anonymous?: boolean;
}

export interface OptionDoc {
  id: string;
  label: string;
  /** Meeting sections: the slot's start (ISO 8601 UTC). */
  starts_at?: string;
  /** Meeting sections: the slot's end (ISO 8601 UTC), after `starts_at`; absent: one hour. */
  ends_at?: string;
}

/**
 * How a section is answered (docs/polls.md, "Section kinds"): `single` (one option, spec 2.2's
 * `votes`), `multiple` (`min_choices` to `max_choices` options), `ranked` (some or all options
 * in order of preference), `meeting` (options are time slots, each answered yes, if need be or no).
 */
export type SectionKind = 'single' | 'multiple' | 'ranked' | 'meeting';

/** A meeting slot's answer. */
export type Availability = 'yes' | 'if_need_be' | 'no';

export interface SectionDoc {
  id: string;
  title: string;
  options: OptionDoc[];
  /** Absent: `single` (every section stored before kinds existed). */
  kind?: SectionKind;
  /** `multiple`: the fewest and most options a voter may choose (1 <= min <= max <= options). */
  min_choices?: number;
  max_choices?: number;
  /** `meeting`: the slot the owner picked, once picked. */
  final_option_id?: string | null;
}

/**
 * The answers of a vote to its sections that are not `single` (section id to: the chosen
 * option ids for `multiple`, the ranking, most preferred first, for `ranked`, option id to
 * availability for `meeting`).
 */
export type BallotAnswers = Record<string, string[] | Record<string, Availability>>;

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
  /** Answers to the sections that are not `single` (absent when there are none). */
  answers?: BallotAnswers;
  /** The options counted in `o:<option id>`: chosen, first preference, or available ("yes"). */
  option_ids: string[];
  /**
   * The other counter fields this vote adds one to (docs/polls.md, "Counters"): `k:<section
   * id>|<ranking>` for a ranked section, `m:<option id>` (if need be) and `n:<option id>` (no)
   * for a meeting section. Absent when none.
   */
  tallies?: string[];
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
  /**
   * True when its voter was told, as they voted, that their name and choices are listed to
   * everyone who may see the results: the poll showed participants' names then
   * (`participantNamesShown`; for a vote held for its one-time password, when it was sent). Only
   * such votes are ever in the list shown to voters (docs/polls.md, "Participants shown to
   * voters"); absent otherwise, and on every vote stored before the field existed.
   */
  names_shown?: true;
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
  /** Hidden by the poll's owner (with its replies): shown to the owner only (absent: shown). */
  hidden?: true;
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
  /** The section kinds' own fields (`k:`, `m:`, `n:`: {@link VoteDoc.tallies}) by full field name. */
  tallies: Record<string, number>;
}

/** A vote reserved for counting: its marker in the uncounted set and the generation it saw. */
export interface Reservation {
  /** `<poll id>|<vote id>|<generation>`: the member of the uncounted set. */
  marker: string;
  generation: string;
}

/** One row of the participants grid (domain/participants.ts): one counted vote. */
export interface ParticipantView {
  /** Null on an anonymous poll: there the id is the voter's receipt (docs/polls.md, "Anonymous but verified"). */
  vote_id: string | null;
  /** The name the voter gave, or the signed-in user's name; null when neither. */
  voter_name: string | null;
  /** The signed-in voter's user id; null for an anonymous voter (fingerprint). */
  user_id: number | null;
  /** The n-th counted vote of this voter on the poll (1 unless `max_votes_per_voter` > 1). */
  seq: number;
  created_at: string;
  /** Seconds, as the client reported it. */
  time_spent: number | null;
  /** Counted after its one-time password. */
  verified: boolean;
  /** Single sections: section id to option id. */
  votes: Record<string, string>;
  /** Sections that are not single (docs/polls.md, "Section kinds"). */
  answers: BallotAnswers;
  /** True on an anonymous poll: `votes` and `answers` are left empty, `vote_id` null. */
  choices_hidden: boolean;
}
