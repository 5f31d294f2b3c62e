import { requireAccess } from './access.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { hourOf, newId } from './ids.ts';
import { tokenHash } from './invitees.ts';
import { problems } from './problems.ts';
import { checkBallot } from './section-kinds.ts';
import type { Actor, BallotAnswers, PollDoc, Voter } from './types.ts';
import { assertOpen } from './vote-rules.ts';
import { countVote } from './voting.ts';

/**
 * Ballots of polls for invitees (issue 37, parts 4 and 5; docs/polls.md, "Invited voters" and
 * "Anonymous but verified"): one ballot per invitation, given with the link's token; on an
 * anonymous poll the ballot keeps no link to the invitee, and its random id is the voter's
 * receipt, checked against the poll's published list of ballot ids.
 */

/** The body of `POST /polls/{poll_id}/ballots`: the link's token and the choices, as a vote's. */
export interface BallotInput {
  token: string;
  /** Section id to option id (joi gives `{}` when `answers` answers every section). */
  votes: Record<string, string>;
  answers?: BallotAnswers;
}

/** The answer of a counted invited ballot. */
export interface BallotReceipt {
  /** The receipt: the ballot's random id (a UUID v4), listed in `GET .../ballot-ids`. */
  ballot_id: string;
  poll_id: string;
  anonymous: boolean;
  /** The UTC hour the ballot is counted in: the only time an anonymous ballot keeps. */
  counted_hour: string;
  total_votes: number;
}

/** Refuses polls that do not take invited ballots (422 naming `token`). */
function assertInvited(poll: PollDoc): void {
  if (poll.settings.voters !== 'invited')
    throw problems.invalid({
      errors: { token: ['This poll is not for invited voters: vote with POST /api/polls/{poll_id}/vote.'] },
    });
}

/**
 * `POST /polls/{poll_id}/ballots` `{token, votes?, answers?}`: counts one ballot for the
 * invitation whose link carried `token`. The order is the guarantee's: the choices are checked,
 * then the register marks the invitee voted (atomic: only an `invited` invitee; a second ballot
 * with any of their links is refused), then the ballot is counted as a vote is (votes, counters,
 * live results, webhooks). On an anonymous poll the ballot's voter key is `b:<its own id>`, it
 * has no name, user, time spent or idempotency key, and its time is its UTC hour. A failure of
 * the count undoes the register's mark unless the ballot may be stored (then the invitee stays
 * voted: at most one ballot per invitation, never two).
 *
 * The caller's identity (signed-in user, IP) is not used nor stored.
 * @throws ProblemError 404 unknown poll; 403 `invitation_refused` (`reason`: `unknown`, `used`,
 *   `revoked`); 422 not a poll for invitees, bad choices, `poll_not_open`.
 */
export async function castInvitedBallot(
  ctx: PollsContext,
  { pollId, input: read }: { pollId: string; input: BodyReader<BallotInput> },
): Promise<BallotReceipt> {
  const { poll } = await requireAccess(ctx, {
    actor: { userId: null },
    permission: 'poll.vote',
    pollId,
  });
  const input = read();
  assertInvited(poll);
  assertOpen(poll);
  const ballot = checkBallot(poll, input);
  const hash = tokenHash(input.token);
  const hour = hourOf(new Date());
  const invitee = await ctx.invitees.markVoted(poll._id, hash, hour);
  if (!invitee) {
    const found = await ctx.invitees.byTokenHash(poll._id, hash);
    const why = !found ? 'unknown' : found.state === 'revoked' ? 'revoked' : 'used';
    throw problems.invitationRefused({ why });
  }
  const anonymous = poll.settings.anonymous === true;
  const ballotId = newId();
  const voter: Voter = anonymous
    ? { key: `b:${ballotId}`, userId: null, name: null, email: null }
    : { key: `i:${invitee._id}`, userId: null, name: invitee.email, email: null };
  try {
    const counted = await countVote(
      ctx,
      poll,
      voter,
      { ballot, voter_name: anonymous ? null : invitee.email, time_spent: null, coarseTime: anonymous },
      { voteId: ballotId },
    );
    return {
      ballot_id: ballotId,
      poll_id: poll._id,
      anonymous,
      counted_hour: hour,
      total_votes: counted.snapshot.total,
    };
  } catch (err) {
    const stored = await ctx.invitees.hasBallot(poll._id, ballotId).catch(() => true);
    if (!stored) await ctx.invitees.unmarkVoted(invitee._id).catch(() => undefined);
    throw err;
  }
}

/** Largest page of {@link listBallotIds}. */
export const MAX_BALLOT_IDS_PAGE = 1000;

/**
 * `GET /polls/{poll_id}/ballot-ids?after&limit`: the published list of a poll for invitees: the
 * ids of its counted ballots in id order (random ids: the order says nothing of time), `limit`
 * (1 to {@link MAX_BALLOT_IDS_PAGE}) after `after`, and the cursor of the next page (null: the
 * end). Anyone may read it: the number of ballots of such a poll is public whatever
 * `results_visibility`. Ballot ids only, never choices.
 * @throws ProblemError 404 unknown poll; 422 not a poll for invitees.
 */
export async function listBallotIds(
  ctx: PollsContext,
  { pollId, actor, after, limit }: { pollId: string; actor: Actor; after?: string; limit: number },
): Promise<{ ballot_ids: string[]; next_after: string | null }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  assertInvited(poll);
  const ids = await ctx.invitees.ballotIds(poll._id, after, limit);
  return { ballot_ids: ids, next_after: ids.length === limit ? ids[ids.length - 1]! : null };
}

/**
 * `POST /polls/{poll_id}/ballot-ids/check` `{ballot_id}`: whether a receipt is in the published
 * list (the voter's check; the same answer as finding it in the list). The id comes in the body:
 * the access log, whose lines name a signed-in caller, never holds it.
 * @throws ProblemError 404 unknown poll or no such counted ballot; 422 not a poll for invitees.
 */
export async function checkReceipt(
  ctx: PollsContext,
  { pollId, actor, ballotId }: { pollId: string; actor: Actor; ballotId: string },
): Promise<{ ballot_id: string; counted: true }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  assertInvited(poll);
  if (!(await ctx.invitees.hasBallot(poll._id, ballotId))) throw problems.notFound({ what: 'ballot' });
  return { ballot_id: ballotId, counted: true };
}
