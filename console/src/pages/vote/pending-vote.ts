import type { KindAnswer } from './kinds/KindSection.tsx';

/** A vote held for its one-time password, as this tab remembers it. */
export interface PendingVote {
  /** `verification_code` of the 202 answer: names the pending vote. */
  code: string;
  /** Where the password went (the voter's e-mail, or undefined for the signed-in user's). */
  email?: string;
  /** When the 202 came (epoch ms): a new code may be asked for once the password expired. */
  sentAt: number;
  /** The choices, to vote again with them for a new code. */
  votes: Record<string, string>;
  /** The answers of the sections that are not single (absent on polls without). */
  answers?: Record<string, KindAnswer>;
  voterName: string;
}

const keyOf = (pollId: string) => `fieldhouse.pending.${pollId}`;

/**
 * The one-time-password step survives a reload of the tab (a phone may drop it while the voter
 * reads the e-mail): the pending vote is kept in sessionStorage per poll. Storage errors are
 * ignored (the step then lasts as long as the page).
 */
export const pendingVotes = {
  load(pollId: string): PendingVote | null {
    try {
      const raw = sessionStorage.getItem(keyOf(pollId));
      return raw ? (JSON.parse(raw) as PendingVote) : null;
    } catch {
      return null;
    }
  },
  save(pollId: string, pending: PendingVote): void {
    try {
      sessionStorage.setItem(keyOf(pollId), JSON.stringify(pending));
    } catch {
      /* private mode: kept in memory only */
    }
  },
  clear(pollId: string): void {
    try {
      sessionStorage.removeItem(keyOf(pollId));
    } catch {
      /* nothing kept */
    }
  },
};

/**
 * How long a one-time password lives: the service's `OTP_TTL_SECONDS` (600 by default,
 * docs/polls.md "One-time passwords"). Before that, voting again answers 403 `otp_required`, so
 * the page offers a new code only afterwards (or at once after a 422 `otp_expired`).
 */
export const OTP_TTL_MS = 600_000;
