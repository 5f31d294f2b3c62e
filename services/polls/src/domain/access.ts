import type { PollsContext } from './context.ts';
import { problems } from './problems.ts';
import type { Actor, CommentDoc, PollDoc } from './types.ts';
import { participantNamesShown } from './visibility.ts';

/**
 * Who an actor is to a poll (and to a comment of it). `shown` is anyone on a poll whose owner
 * shows participants' names (domain/visibility.ts, `participantNamesShown`).
 */
type Role = 'anyone' | 'owner' | 'author' | 'shown';

/** Roles a signed-out actor can hold once the poll is loaded. */
const SIGNED_OUT_ROLES: ReadonlySet<Role> = new Set(['anyone', 'shown']);

/**
 * Who may do what (docs/polls.md, "Polls": "Someone else's poll: 403; unknown: 404"): every
 * poll is visible to anyone, so an unknown id is the only 404, and an actor without the role is
 * 403. Votes, reactions and comments are for `anyone` here; a poll for signed-in users refuses
 * anonymous voters when they are identified (voter.ts, `identifyVoter`).
 */
const PERMISSIONS = {
  'poll.read': ['anyone'],
  'poll.vote': ['anyone'],
  'poll.react': ['anyone'],
  'poll.comment': ['anyone'],
  'poll.manage': ['owner'],
  /** Who voted (domain/participants.ts): the owner, or anyone when names are shown. */
  'participants.read': ['owner', 'shown'],
  'webhooks.manage': ['owner'],
  'comment.delete': ['owner', 'author'],
  'comment.hide': ['owner'],
} as const satisfies Record<string, readonly Role[]>;

/** An action on a poll or on a comment of it (the keys of the permission table). */
export type Permission = keyof typeof PERMISSIONS;

/** The forbidden and unauthenticated sentences of the actions that need a role. */
const REFUSAL = {
  'poll.manage': { forbidden: 'managePoll', unauthenticated: 'managePoll' },
  'participants.read': { forbidden: 'managePoll', unauthenticated: 'managePoll' },
  'webhooks.manage': { forbidden: 'managePoll', unauthenticated: 'manageWebhooks' },
  'comment.delete': { forbidden: 'deleteComment', unauthenticated: 'managePoll' },
  'comment.hide': { forbidden: 'hideComment', unauthenticated: 'managePoll' },
} as const;

/** What {@link requireAccess} checks: who, what, and on which poll (and comment). */
export interface AccessRequest<P extends Permission> {
  actor: Pick<Actor, 'userId'>;
  permission: P;
  pollId: string;
  /** The comment, for `comment.delete` and `comment.hide`. */
  commentId?: P extends CommentPermission ? string : never;
}

/** The actions on one comment (the request names it). */
type CommentPermission = 'comment.delete' | 'comment.hide';

/** What {@link requireAccess} loaded: the poll, and the comment for the comment actions. */
type Granted<P extends Permission> = P extends CommentPermission
  ? { poll: PollDoc; comment: CommentDoc }
  : { poll: PollDoc };

/**
 * The one access check of the polls service, called once by each use case (in the manner of
 * immich's `requireAccess({ auth, permission, ids })`): loads the poll (and the comment), then
 * answers the same way for every resource: 401 `unauthenticated` for a signed-out actor where
 * a role is needed (before any lookup, unless a signed-out actor may hold one of the roles: then
 * once the poll shows it has none), 404 `not_found` when it does not exist, 403 `forbidden` when
 * a signed-in actor has none of the permission's roles. Resolves with what it loaded, so the use case does
 * not load it twice.
 * @throws ProblemError `not_found`, `unauthenticated`, `forbidden`.
 */
export async function requireAccess<P extends Permission>(
  ctx: PollsContext,
  { actor, permission, pollId, commentId }: AccessRequest<P>,
): Promise<Granted<P>> {
  const roles: readonly Role[] = PERMISSIONS[permission];
  const refusal = roles.includes('anyone') ? undefined : REFUSAL[permission as keyof typeof REFUSAL];
  const signedOut = actor.userId === null;
  if (refusal && signedOut && !roles.some((role) => SIGNED_OUT_ROLES.has(role)))
    throw problems.unauthenticated({ what: refusal.unauthenticated });
  const poll = await ctx.polls.get(pollId);
  if (!poll) throw problems.notFound({ what: 'poll' });
  let comment: CommentDoc | null = null;
  if (commentId !== undefined) {
    comment = await ctx.comments.inPoll(poll._id, commentId);
    if (!comment) throw problems.notFound({ what: 'comment' });
  }
  if (refusal) {
    const has = (role: Role) =>
      (role === 'owner' && !signedOut && poll.owner_id === actor.userId) ||
      (role === 'author' && !signedOut && comment !== null && comment.user_id === actor.userId) ||
      (role === 'shown' && participantNamesShown(poll.settings));
    if (!roles.some(has))
      throw signedOut
        ? problems.unauthenticated({ what: refusal.unauthenticated })
        : problems.forbidden({ what: refusal.forbidden });
  }
  return (comment ? { poll, comment } : { poll }) as Granted<P>;
}
