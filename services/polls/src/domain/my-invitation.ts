import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import { tokenHash } from './invitees.ts';
import { problems } from './problems.ts';
import type { Actor } from './types.ts';
import { voteView } from './views.ts';

/**
 * What the holder of a personal invitation link learns about it on arriving (issue 37, part 3;
 * docs/polls.md, "Invited voters", "My invitation"): whether the link still takes a ballot, so
 * the voting page says "you have voted", "withdrawn" or "not valid" before showing a ballot,
 * instead of a refusal after the Vote button.
 */

/**
 * The state of an invitation link, in the words of the ballot's refusal (`invitation_refused`
 * `reason`: `unknown`, `used`, `revoked`), plus `unused`: the link takes a ballot.
 */
type InvitationStatus = 'unused' | 'used' | 'revoked' | 'unknown';

/** What {@link getMyInvitation} resolves. */
export interface MyInvitation {
  status: InvitationStatus;
  /** Whether the poll's ballots are anonymous (then `votes` is always empty). */
  anonymous: boolean;
  /** `used`: the UTC hour the register recorded (`2026-01-31T14:00:00Z`); else null. */
  voted_hour: string | null;
  /**
   * `used` on a poll that is not anonymous: the ballot cast with this invitation (voter key
   * `i:<invitee id>`), in the vote answer's `vote` shape; else empty (an anonymous ballot keeps
   * no link to its invitee: nothing can find it).
   */
  votes: ReturnType<typeof voteView>[];
}

/** Command of {@link getMyInvitation}. */
export interface GetMyInvitation {
  pollId: string;
  actor: Actor;
  /** The personal link's token (`#invite=<token>`), from the request body (never a URL). */
  token: string;
}

/**
 * `POST /polls/{poll_id}/invitation` `{token}`: the state of the invitation holding `token` on
 * a poll for invitees (`settings.voters: invited`): `unused` (it takes one ballot), `used` (with
 * the register's `voted_hour` and, when the poll is not anonymous, the ballot itself), `revoked`
 * (withdrawn by the owner) or `unknown` (no invitation of this poll has it: mistyped, cut, or a
 * link of a withdrawn invitation sent again). Reads only: the token is hashed and looked up as
 * `POST .../ballots` does, nothing is written (no log line, no Redis key). Whether the poll is
 * open does not matter. The caller's sign-in, IP and fingerprint are not used.
 * @throws ProblemError 404 unknown poll; 422 naming `token` when the poll is not for invitees.
 */
export async function getMyInvitation(
  ctx: PollsContext,
  { pollId, actor, token }: GetMyInvitation,
): Promise<MyInvitation> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  if (poll.settings.voters !== 'invited')
    throw problems.invalid({
      errors: { token: ['This poll is not for invited voters: no invitation link takes its ballots.'] },
    });
  const anonymous = poll.settings.anonymous === true;
  const invitee = await ctx.invitees.byTokenHash(poll._id, tokenHash(token));
  if (!invitee) return { status: 'unknown', anonymous, voted_hour: null, votes: [] };
  if (invitee.state === 'revoked') return { status: 'revoked', anonymous, voted_hour: null, votes: [] };
  if (invitee.state === 'invited') return { status: 'unused', anonymous, voted_hour: null, votes: [] };
  const docs = anonymous ? [] : await ctx.votes.allByVoter(poll._id, `i:${invitee._id}`);
  return {
    status: 'used',
    anonymous,
    voted_hour: invitee.voted_hour,
    votes: docs.map((v) => voteView({ ...v, id: v._id }, 'counted')),
  };
}
