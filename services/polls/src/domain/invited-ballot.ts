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
  /** The personal link's token; absent for a signed-in voter's anonymous ballot. */
  token?: string;
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

/** Whether a poll takes its ballots at `POST .../ballots`: for invitees, or signed-in users' anonymous ones. */
const takesBallots = (poll: PollDoc): boolean =>
  poll.settings.voters === 'invited' || poll.settings.anonymous === true;

/** Refuses polls that do not take ballots at `POST .../ballots` (422 naming `token`). */
function assertTakesBallots(poll: PollDoc): void {
  if (!takesBallots(poll))
    throw problems.invalid({
      errors: {
        token: [
          'This poll is not for invited voters nor anonymous ballots: vote with POST /api/polls/{poll_id}/vote.',
        ],
      },
    });
}

/** Who a ballot is for, once the register has marked them: what undoes the mark, and the voter key. */
interface Registered {
  /** The ballot's voter: `b:<ballot id>` when anonymous, else `i:<invitee id>`. */
  voter: Voter;
  voterName: string | null;
  undo: () => Promise<void>;
}

/**
 * The register's one-ballot rule for an invitation: marks the invitee holding `token` as voted
 * in `hour` (atomic: only an `invited` invitee).
 * @throws ProblemError 403 `invitation_refused` (`unknown`, `used`, `revoked`).
 */
async function registerInvitee(
  ctx: PollsContext,
  poll: PollDoc,
  token: string,
  hour: string,
  ballotId: string,
): Promise<Registered> {
  const hash = tokenHash(token);
  const invitee = await ctx.invitees.markVoted(poll._id, hash, hour);
  if (!invitee) {
    const found = await ctx.invitees.byTokenHash(poll._id, hash);
    const why = !found ? 'unknown' : found.state === 'revoked' ? 'revoked' : 'used';
    throw problems.invitationRefused({ why });
  }
  const anonymous = poll.settings.anonymous === true;
  return {
    voter: anonymous
      ? { key: `b:${ballotId}`, userId: null, name: null, email: null }
      : { key: `i:${invitee._id}`, userId: null, name: invitee.email, email: null },
    voterName: anonymous ? null : invitee.email,
    undo: () => ctx.invitees.unmarkVoted(invitee._id),
  };
}

/**
 * The register's one-ballot rule for a signed-in user on a poll of signed-in users with
 * anonymous ballots: one `ballot_register` document per (poll, user).
 * @throws ProblemError 401 signed out; 403 not an anonymous poll of signed-in users (a token
 *   is needed: `invitation_refused`); 422 `ballot_already_cast`.
 */
async function registerUser(
  ctx: PollsContext,
  poll: PollDoc,
  actor: Actor,
  hour: string,
  ballotId: string,
): Promise<Registered> {
  if (poll.settings.voters === 'invited') throw problems.invitationRefused({ why: 'unknown' });
  if (actor.userId === null) throw problems.unauthenticated({ what: 'takePart' });
  const userId = actor.userId;
  if (!(await ctx.invitees.register(poll._id, userId, hour))) throw problems.ballotCast();
  return {
    voter: { key: `b:${ballotId}`, userId: null, name: null, email: null },
    voterName: null,
    undo: () => ctx.invitees.unregister(poll._id, userId),
  };
}

/**
 * `POST /polls/{poll_id}/ballots` `{token?, votes, answers?}`: counts one ballot, either for the
 * invitation whose link carried `token` (a poll for invitees), or, without `token`, for the
 * signed-in caller on a poll of signed-in users with anonymous ballots. The order is the
 * guarantee's: the choices are checked, then the register marks the voter (atomic: a second
 * ballot is refused), then the ballot is counted as a vote is (votes, counters, live results,
 * webhooks). On an anonymous poll the ballot's voter key is `b:<its own id>`, it has no name,
 * user, time spent or idempotency key, and its time is its UTC hour. A failure of the count undoes
 * the register's mark unless the ballot may be stored (then the voter stays marked: at most one
 * ballot per voter, never two).
 *
 * The caller's identity is used only for the signed-in register; their IP and fingerprint never.
 * @throws ProblemError 404 unknown poll; 401 signed out on a poll of signed-in users; 403
 *   `invitation_refused` (`reason`: `unknown`, `used`, `revoked`); 422 a poll that does not take
 *   ballots here, bad choices, `poll_not_open`, `ballot_already_cast`.
 */
export async function castInvitedBallot(
  ctx: PollsContext,
  { pollId, actor, input: read }: { pollId: string; actor: Actor; input: BodyReader<BallotInput> },
): Promise<BallotReceipt> {
  const { poll } = await requireAccess(ctx, { actor: { userId: null }, permission: 'poll.vote', pollId });
  const input = read();
  assertTakesBallots(poll);
  assertOpen(poll);
  const ballot = checkBallot(poll, input);
  const hour = hourOf(new Date());
  const ballotId = newId();
  const registered = input.token
    ? await registerInvitee(ctx, poll, input.token, hour, ballotId)
    : await registerUser(ctx, poll, actor, hour, ballotId);
  const anonymous = poll.settings.anonymous === true;
  try {
    const counted = await countVote(
      ctx,
      poll,
      registered.voter,
      { ballot, voter_name: registered.voterName, time_spent: null, coarseTime: anonymous },
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
    if (!stored) await registered.undo().catch(() => undefined);
    throw err;
  }
}

/** Largest page of {@link listBallotIds}. */
export const MAX_BALLOT_IDS_PAGE = 1000;

/**
 * `GET /polls/{poll_id}/ballot-ids?after&limit`: the published list of a poll for invitees or
 * with anonymous ballots: the
 * ids of its counted ballots in id order (random ids: the order says nothing of time), `limit`
 * (1 to {@link MAX_BALLOT_IDS_PAGE}) after `after`, and the cursor of the next page (null: the
 * end). Anyone may read it: the number of ballots of such a poll is public whatever
 * `results_visibility`. Ballot ids only, never choices.
 * @throws ProblemError 404 unknown poll; 422 not a poll for invitees nor with anonymous ballots.
 */
export async function listBallotIds(
  ctx: PollsContext,
  { pollId, actor, after, limit }: { pollId: string; actor: Actor; after?: string; limit: number },
): Promise<{ ballot_ids: string[]; next_after: string | null }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  assertTakesBallots(poll);
  const ids = await ctx.invitees.ballotIds(poll._id, after, limit);
  return { ballot_ids: ids, next_after: ids.length === limit ? ids[ids.length - 1]! : null };
}

/**
 * `POST /polls/{poll_id}/ballot-ids/check` `{ballot_id}`: whether a receipt is in the published
 * list (the voter's check; the same answer as finding it in the list). The id comes in the body:
 * the access log, whose lines name a signed-in caller, never holds it.
 * @throws ProblemError 404 unknown poll or no such counted ballot; 422 not a poll for invitees nor
 *   with anonymous ballots.
 */
export async function checkReceipt(
  ctx: PollsContext,
  { pollId, actor, ballotId }: { pollId: string; actor: Actor; ballotId: string },
): Promise<{ ballot_id: string; counted: true }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  assertTakesBallots(poll);
  if (!(await ctx.invitees.hasBallot(poll._id, ballotId))) throw problems.notFound({ what: 'ballot' });
  return { ballot_id: ballotId, counted: true };
}
