import type { Envelope } from '@fieldhouse/contracts';
import type { BallotAnswers } from '../domain/types.ts';

/**
 * The stored shapes of the polls database that belong to the data layer only (polls, votes and
 * comments are domain types: domain/types.ts). One module without imports of its own, so that
 * collections.ts and the repositories share them without importing each other.
 */

/** A voter's current reaction on a poll (`_id` is `<poll id>:<voter key>`). */
export interface ReactionDoc {
  _id: string;
  poll_id: string;
  voter_key: string;
  reaction_type: string;
  updated_at: string;
}

/** Sent e-mail ids of the mail worker (docs/polls.md, "One-time passwords"). */
export interface SentMailDoc {
  _id: string;
  state: 'sending' | 'sent';
  claimed_at: Date;
}

/** A message waiting in the MongoDB outbox (`_id` is the envelope id). */
export interface OutboxDoc {
  _id: string;
  exchange: string;
  message: Envelope;
  created_at: Date;
  /** Until when a relay holds it (a relay that died lets it go after this time). */
  claimed_until: Date;
  /** The token of the relay batch that claimed it last (absent until one does). */
  claim?: string;
  attempts: number;
  last_error?: string;
}

/**
 * A vote held until the voter gives the one-time password (docs/polls.md). `_id` is
 * `<poll id>:<voter key>`, so a voter has at most one; `code` (the `verification_code` of the
 * vote answer) names it publicly. Only a SHA-256 of the password is stored.
 */
export interface PendingVoteDoc {
  _id: string;
  code: string;
  poll_id: string;
  voter_key: string;
  user_id: number | null;
  email: string;
  choices: Record<string, string>;
  /** Answers to the sections that are not `single`, as sent (docs/polls.md, "Section kinds"). */
  answers?: BallotAnswers;
  voter_name: string | null;
  time_spent: number | null;
  /** The poll showed participants' names when the vote was sent (its `names_shown` once counted). */
  names_shown?: true;
  password_hash: string;
  attempts: number;
  state: 'pending' | 'verified';
  expires_at: string;
  created_at: string;
}

/**
 * One invitee of a poll for invitees (`poll_invitees`; docs/polls.md, "Invited voters"). It is
 * also the register of who has voted: `state: 'voted'` and the UTC hour (`voted_hour`), never
 * the ballot, on an anonymous poll. Only SHA-256 hashes of the tokens of the links sent are kept.
 */
export interface InviteeDoc {
  /** A random UUID, unrelated to any ballot id. */
  _id: string;
  poll_id: string;
  /** Lower-cased e-mail address; unique in its poll. */
  email: string;
  /**
   * SHA-256 (hex) of each token e-mailed (the invitation, then each reminder): any of them
   * works until the invitee votes or is removed.
   */
  token_hashes: string[];
  state: 'invited' | 'voted' | 'revoked';
  invited_at: string;
  /** The last reminder (ISO), or null. */
  reminded_at: string | null;
  reminders: number;
  /** The register: the UTC hour the invitee voted (`2026-01-31T14:00:00Z`), or null. */
  voted_hour: string | null;
}

/**
 * The register of a poll of signed-in users with anonymous ballots (`ballot_register`; docs/polls.md,
 * "Anonymous but verified"): who has cast their ballot (`_id` `<poll id>:<user id>`, one each) and
 * in which UTC hour, never which ballot.
 */
export interface RegisterDoc {
  _id: string;
  poll_id: string;
  user_id: number;
  /** `2026-01-31T14:00:00Z`. */
  voted_hour: string;
}
