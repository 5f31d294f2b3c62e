import { requireAccess } from './access.ts';
import type { BodyReader, PollsContext } from './context.ts';
import type { Actor, BallotAnswers, VoteDoc } from './types.ts';

/**
 * Who voted (issue 37, part 3; docs/polls.md, "Participants"): the owner's grid of counted
 * votes. Owner only, whatever the poll's `results_visibility` and `show_participant_names`
 * (both say what others see; the owner sees everything, as with results).
 */

/** One row of the participants grid: one counted vote. */
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

/** A counted vote as a row of the grid (and of the votes export). */
const participantView = (v: VoteDoc): ParticipantView => ({
  vote_id: v._id,
  voter_name: v.voter_name,
  user_id: v.user_id,
  seq: v.seq,
  created_at: v.created_at,
  time_spent: v.time_spent,
  verified: v.verified === true,
  votes: v.choices,
  answers: v.answers ?? {},
  choices_hidden: false,
});

/**
 * A ballot of an anonymous poll as a row: when it was counted (its UTC hour: all it keeps) and
 * nothing else. Its choices would join it to a voter through the register's voting hour, and its
 * id is the voter's receipt (docs/polls.md, "Anonymous but verified"); who voted is the invitee
 * list's (`GET .../invitees`).
 */
const anonymousRow = (v: VoteDoc): ParticipantView => ({
  vote_id: null,
  voter_name: null,
  user_id: null,
  seq: 1,
  created_at: v.created_at,
  time_spent: null,
  verified: v.verified === true,
  votes: {},
  answers: {},
  choices_hidden: true,
});

/** Command of {@link listParticipants}: the poll, who asks, the page (read once access is granted). */
export interface ListParticipants {
  pollId: string;
  actor: Actor;
  page: BodyReader<{ page: number; per_page: number }>;
}

/**
 * `GET /polls/{poll_id}/participants?page&per_page`: the poll's counted votes, newest first
 * (equal times: by id, descending), one page (per_page 1 to 100, default 15), and how many
 * there are (the counters' `total`). Votes held for their
 * one-time password are not counted yet and not listed. On an anonymous poll each row is a
 * ballot's hour only (no id, no choices: {@link anonymousRow}).
 * @throws ProblemError 401 signed out; 404 unknown poll; 403 not the poll's owner; 422 bad page.
 */
export async function listParticipants(
  ctx: PollsContext,
  { pollId, actor, page: readPage }: ListParticipants,
): Promise<{ items: ParticipantView[]; total: number }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  const { page, per_page: perPage } = readPage();
  // The total is the counters' (exact, rebuilt from the votes when lost): a count of the votes
  // would scan them all on FerretDB.
  const [votes, counters] = await Promise.all([
    ctx.votes.pageOfPoll(poll._id, (page - 1) * perPage, perPage),
    ctx.counters.read(poll._id),
  ]);
  const row = poll.settings.anonymous === true ? anonymousRow : participantView;
  return { items: votes.map(row), total: counters.total };
}
