import { Exchanges } from '@fieldhouse/contracts';
import { requireAccess } from './access.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { newId } from './ids.ts';
import { problems } from './problems.ts';
import { limitVoter } from './rate-limit.ts';
import { recordReachedMilestone } from './results.ts';
import type { Actor, CommentDoc } from './types.ts';
import { commentView, type CommentView } from './views.ts';
import { identifyVoter } from './vote-rules.ts';
import { commentCreatedMessage } from './changes.ts';

/** The comment body (http/comment-schemas.ts validates it). */
export interface CommentInput {
  /** Plain text, 1 to 2,000 characters, trimmed. */
  content: string;
  parent_id: string | null;
  author_name?: string;
  voter_fingerprint?: string;
}

/** Command of {@link addComment}: the poll, the actor and the comment body (read once the poll is known). */
export interface AddComment {
  pollId: string;
  actor: Actor;
  input: BodyReader<CommentInput>;
}

/**
 * `POST /polls/{poll_id}/comment` `{content, parent_id}` (spec 2.2, 4.2): content is 1 to 2,000
 * characters of plain text (stored as given after trimming; never interpreted as HTML);
 * `parent_id` is a comment of the same poll or null. Resolves the comment (201 `{data:
 * comment, message}`).
 * @throws ProblemError 404 unknown poll; 422 bad body; 401 anonymous actor on an `authenticated` poll; 403
 *   `comments_disabled`; 422 `parent_id` not a comment of this poll, anonymous actor without
 *   fingerprint; 429 `rate_limited` (per voter and poll, with `Retry-After`).
 */
export async function addComment(ctx: PollsContext, command: AddComment): Promise<CommentView> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.comment',
    pollId: command.pollId,
  });
  const input = command.input();
  const voter = identifyVoter(poll, command.actor, input.voter_fingerprint);
  if (!poll.settings.allow_comments) throw problems.commentsDisabled();
  let ancestors: string[] = [];
  if (input.parent_id !== null) {
    const parent = await ctx.comments.inPoll(poll._id, input.parent_id);
    if (!parent || parent.hidden)
      throw problems.invalid({
        errors: { parent_id: ['The parent_id must be a comment of this poll, or null.'] },
      });
    ancestors = [...parent.ancestors, parent._id];
  }
  await limitVoter(ctx, 'comment', poll._id, voter.key, ctx.settings.commentsPerMinute);
  const gen = await ctx.counters.generation(poll._id);
  const id = newId();
  const doc: CommentDoc = {
    _id: id,
    poll_id: poll._id,
    parent_id: input.parent_id,
    root_id: ancestors[0] ?? id,
    ancestors,
    content: input.content,
    author_name: input.author_name || voter.name,
    user_id: voter.userId,
    voter_key: voter.key,
    created_at: new Date().toISOString(),
  };
  await ctx.inTransaction(async ({ outbox, onRollback }) => {
    await ctx.comments.insert(doc);
    onRollback(() => ctx.comments.deleteWithReplies(poll._id, doc._id));
    const message = commentCreatedMessage(poll, doc);
    if (message) await outbox.add(Exchanges.polls, message);
  });
  const applied = await ctx.counters.apply(poll._id, gen, { comments: 1 }, ['comments']);
  if (applied) await recordReachedMilestone(ctx, poll, 'comments', applied.comments, doc.created_at);
  await commentsChanged(ctx, poll._id);
  return commentView(doc);
}

/** Command of {@link listComments}: the poll and the page asked for (`page` from 1). */
export interface ListComments {
  pollId: string;
  actor: Actor;
  /** The page asked for, read once the poll is found (an unknown poll is a 404 before any 422). */
  page: BodyReader<{ page: number; per_page: number }>;
}

/** A comment with its whole thread nested in `replies`. */
export type CommentThread = CommentView & { replies: CommentThread[] };

/**
 * After a comment was added, deleted, hidden or shown again: the cached recent comments go, and
 * open live-results streams get a new `results` event at once (its `comments_total` and
 * `recent_comments` tell pages to read the threads again; docs/polls.md, "Comments").
 */
async function commentsChanged(ctx: PollsContext, pollId: string): Promise<void> {
  await ctx.results.dropRecent(pollId);
  await ctx.live.publish(pollId).catch((err: unknown) => ctx.logger.warn('live publish failed', { err }));
}

/**
 * `GET /polls/{poll_id}/comments?page&per_page`: top-level comments, newest first, one page
 * (per_page 1 to 100, default 15), each with its whole thread nested in `replies` (oldest
 * first), and the number of top-level comments. Comments the owner hid (with their replies) are
 * left out, except for the poll's owner, who gets them with `hidden: true`.
 * @throws ProblemError 404 unknown poll.
 */
export async function listComments(
  ctx: PollsContext,
  { pollId, actor, page: readPage }: ListComments,
): Promise<{ items: CommentThread[]; total: number }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  const { page, per_page: perPage } = readPage();
  const owner = actor.userId !== null && actor.userId === poll.owner_id;
  const { roots, total } = await ctx.comments.pageOfRoots(poll._id, (page - 1) * perPage, perPage, owner);
  const replies = await ctx.comments.repliesOf(
    poll._id,
    roots.map((r) => r._id),
    owner,
  );
  const views = new Map<string, CommentThread>();
  for (const c of [...roots, ...replies]) views.set(c._id, { ...commentView(c), replies: [] });
  for (const c of replies) views.get(c.parent_id!)?.replies.push(views.get(c._id)!);
  return { items: roots.map((r) => views.get(r._id)!), total };
}

/** Command of {@link deleteComment}: the poll, the comment and who asks. */
export interface DeleteComment {
  pollId: string;
  commentId: string;
  actor: Actor;
}

/**
 * `DELETE /polls/{poll_id}/comments/{comment_id}`: the poll's owner (or the comment's author)
 * deletes a comment and its replies.
 * @throws ProblemError 404 unknown poll or comment; 403 for anyone else.
 */
export async function deleteComment(ctx: PollsContext, { pollId, commentId, actor }: DeleteComment) {
  const { poll } = await requireAccess(ctx, { actor, permission: 'comment.delete', pollId, commentId });
  const gen = await ctx.counters.generation(poll._id);
  const deleted = await ctx.inTransaction(async () => ctx.comments.deleteWithReplies(poll._id, commentId));
  await ctx.counters.apply(poll._id, gen, { comments: -deleted }, []);
  await commentsChanged(ctx, poll._id);
}

/** Command of {@link hideComment}: the poll, the comment, hide (true) or show again (false), and who asks. */
export interface HideComment {
  pollId: string;
  commentId: string;
  hidden: boolean;
  actor: Actor;
}

/**
 * `PATCH /polls/{poll_id}/comments/{comment_id}` `{hidden}`: the poll's owner hides a comment
 * with every reply under it (others no longer get them: not in the list, not in
 * `recent_comments`, not in `comments_total`), or shows them again. Hiding what is hidden
 * changes nothing. Resolves the comment as the owner now sees it.
 * @throws ProblemError 401 signed out; 404 unknown poll or comment; 403 anyone but the owner.
 */
export async function hideComment(ctx: PollsContext, command: HideComment): Promise<CommentView> {
  const { poll, comment } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'comment.hide',
    pollId: command.pollId,
    commentId: command.commentId,
  });
  const gen = await ctx.counters.generation(poll._id);
  const changed = await ctx.comments.setHidden(poll._id, comment._id, command.hidden);
  if (changed) {
    await ctx.counters.apply(poll._id, gen, { comments: command.hidden ? -changed : changed }, []);
    await commentsChanged(ctx, poll._id);
  }
  const { hidden: _was, ...shown } = comment;
  return commentView(command.hidden ? { ...shown, hidden: true } : shown);
}
