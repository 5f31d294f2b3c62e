import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import type { Actor, PollDoc } from './types.ts';
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
  /**
   * Whether the caller can be told apart at all: signed in, or anonymous with a fingerprint; on
   * an anonymous poll, signed in on a poll of signed-in users (the register knows them).
   */
  identified: boolean;
  /**
   * Whether the poll's ballots are anonymous: then `voted` comes from the register of who voted
   * and `votes` is always empty (no ballot is linked to its voter).
   */
  anonymous: boolean;
  /** On an anonymous poll, the UTC hour the register recorded the caller's ballot in; else null. */
  voted_hour: string | null;
}

/**
 * My ballot on an anonymous poll: a signed-in user on a poll of signed-in users is found in the
 * `ballot_register` (voted, and in which hour: never which ballot); one ballot each. An invitee's
 * ballot is found by their link (`POST .../invitation`), not here.
 */
async function registeredBallot(ctx: PollsContext, poll: PollDoc, actor: Actor): Promise<MyBallot> {
  const userId = poll.settings.voters === 'invited' ? null : actor.userId;
  const hour = userId === null ? null : await ctx.invitees.registeredHour(poll._id, userId);
  return {
    voted: hour !== null,
    votes: [],
    remaining_votes: hour === null ? 1 : 0,
    max_votes_per_voter: 1,
    identified: userId !== null,
    anonymous: true,
    voted_hour: hour,
  };
}

/**
 * `GET /polls/{poll_id}/my-ballot` (issue 37, part 3; docs/polls.md, "My ballot"): the
 * caller's own counted votes on the poll, recognised as a vote is (the signed-in user, else the
 * fingerprint with the client IP), so a voting page can say "you have voted" on arrival instead
 * of a `vote_limit_reached` after the button. A caller who cannot be told apart (anonymous
 * without fingerprint) gets `identified: false`, nothing voted. Anyone may ask about their own
 * ballot on any poll: it shows nothing of others'. On an anonymous poll (docs/polls.md,
 * "Anonymous but verified") the ballots keep no voter: a signed-in user of a poll of signed-in
 * users is `voted` when the `ballot_register` has them (`voted_hour`, `remaining_votes` 0 of 1,
 * `votes` empty), so the page says "you have voted" instead of a `ballot_already_cast` after the
 * button; anyone else is `identified: false` (an invitee asks with their link:
 * `POST .../invitation`). For a browser-traits fingerprint (`b:`) `votes` is empty: whether it
 * voted and the votes left only.
 * @throws ProblemError 404 unknown poll.
 */
export async function getMyBallot(ctx: PollsContext, command: GetMyBallot): Promise<MyBallot> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.read',
    pollId: command.pollId,
  });
  if (poll.settings.anonymous === true) return registeredBallot(ctx, poll, command.actor);
  const max = poll.settings.max_votes_per_voter;
  const reader = readerOf(command.actor, command.fingerprint);
  const docs = reader ? await ctx.votes.allByVoter(poll._id, reader.key) : [];
  // A fingerprint made of a browser's traits (`b:`, a framed embed without storage) can be
  // computed by someone else with the same browser behind the same IP: say whether it voted,
  // never what it chose (docs/polls.md, "Embedding").
  const guessable = command.actor.userId === null && command.fingerprint?.startsWith('b:') === true;
  return {
    voted: docs.length > 0,
    votes: guessable ? [] : docs.map((v) => voteView({ ...v, id: v._id }, 'counted')),
    remaining_votes: Math.max(0, max - docs.length),
    max_votes_per_voter: max,
    identified: reader !== null,
    anonymous: false,
    voted_hour: null,
  };
}
