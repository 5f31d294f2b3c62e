import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import type { Actor } from './types.ts';
import { readerOf } from './vote-rules.ts';
import { voteView } from './views.ts';

/** Command of {@link getMyBallot}: the poll, who asks, and an anonymous caller's fingerprint. */
export interface GetMyBallot {
  pollId: string;
  actor: Actor;
  /** The `voter_fingerprint` an anonymous caller votes with (up to 200 characters). */
  fingerprint: string | undefined;
}

/** What {@link getMyBallot} resolves: the caller's counted votes and what is left. */
export interface MyBallot {
  /** Whether the caller has at least one counted vote on the poll. */
  voted: boolean;
  /** Their counted votes, oldest first (the vote answer's `vote` shape, `status: counted`). */
  votes: ReturnType<typeof voteView>[];
  /** `max_votes_per_voter` minus their counted votes (never below 0). */
  remaining_votes: number;
  max_votes_per_voter: number;
  /** Whether the caller can be told apart at all: signed in, or anonymous with a fingerprint. */
  identified: boolean;
}

/**
 * `GET /polls/{poll_id}/my-ballot` (issue 37, part 3; docs/polls.md, "My ballot"): the
 * caller's own counted votes on the poll, recognised as a vote is (the signed-in user, else the
 * fingerprint with the client IP), so a voting page can say "you have voted" on arrival instead
 * of a `vote_limit_reached` after the button. A caller who cannot be told apart (anonymous
 * without fingerprint) gets `identified: false`, nothing voted. Anyone may ask about their own
 * ballot on any poll: it shows nothing of others'.
 * @throws ProblemError 404 unknown poll.
 */
export async function getMyBallot(ctx: PollsContext, command: GetMyBallot): Promise<MyBallot> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.read',
    pollId: command.pollId,
  });
  const max = poll.settings.max_votes_per_voter;
  const reader = readerOf(command.actor, command.fingerprint);
  const docs = reader ? await ctx.votes.allByVoter(poll._id, reader.key) : [];
  return {
    voted: docs.length > 0,
    votes: docs.map((v) => voteView({ ...v, id: v._id }, 'counted')),
    remaining_votes: Math.max(0, max - docs.length),
    max_votes_per_voter: max,
    identified: reader !== null,
  };
}
