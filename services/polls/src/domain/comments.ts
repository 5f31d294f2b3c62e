import type { Caller } from '@fieldhouse/internal-auth';
import { Joi } from '@fieldhouse/config';
import { forbidden, notFound, unprocessable, validate } from '@fieldhouse/problem';
import { paginated, parsePageQuery } from '@fieldhouse/http';
import type { PollsContext } from './context.ts';
import { newId } from './ids.ts';
import { limitVoter } from './rate-limit.ts';
import { recentKey, recordReachedMilestone } from './results.ts';
import type { CommentDoc, PollDoc } from './types.ts';
import { commentView, type CommentView } from './views.ts';
import { identifyVoter } from './voter.ts';

// Plain text: any character but control characters other than tab, line feed, carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const schema = Joi.object<{
  content: string;
  parent_id: string | null;
  author_name?: string;
  voter_fingerprint?: string;
}>({
  content: Joi.string()
    .trim()
    .min(1)
    .max(2000)
    .required()
    .custom((v: string, h) => (CONTROL.test(v) ? h.error('string.control') : v))
    .messages({ 'string.control': 'The content must be plain text without control characters.' }),
  parent_id: Joi.string().max(64).allow(null).default(null),
  author_name: Joi.string().trim().max(100).allow(''),
  voter_fingerprint: Joi.string().min(8).max(200),
});

/**
 * `POST /polls/{poll_id}/comment` `{content, parent_id}` (spec 2.2, 4.2): content is 1 to 2,000
 * characters of plain text (stored as given after trimming; never interpreted as HTML);
 * `parent_id` is a comment of the same poll or null, else 422. Answers 201 `{data: comment,
 * message}`. 403 when comments are off, 429 over the rate limit.
 */
export async function addComment(ctx: PollsContext, poll: PollDoc, caller: Caller, body: unknown) {
  const input = validate(schema, body);
  const voter = identifyVoter(poll, caller, input.voter_fingerprint);
  if (!poll.settings.allow_comments)
    throw forbidden('Comments are turned off on this poll.', { code: 'comments_disabled' });
  let ancestors: string[] = [];
  if (input.parent_id !== null) {
    const parent = await ctx.c.comments.findOne({ _id: input.parent_id, poll_id: poll._id });
    if (!parent) throw unprocessable('parent_id', 'The parent_id must be a comment of this poll, or null.');
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
  await ctx.c.comments.insertOne(doc);
  const applied = await ctx.counters.apply(poll._id, gen, { comments: 1 }, ['comments']);
  if (applied) await recordReachedMilestone(ctx, poll, 'comments', applied.comments, doc.created_at);
  await ctx.redis.del(recentKey(ctx, poll._id));
  return { status: 201, message: 'Your comment was added.', data: commentView(doc) };
}

/**
 * `GET /polls/{poll_id}/comments?page&per_page`: top-level comments, newest first, paginated
 * (per_page 1 to 100, default 15), each with its whole thread nested in `replies` (oldest first).
 */
export async function listComments(ctx: PollsContext, poll: PollDoc, query: unknown) {
  const page = parsePageQuery(query);
  const filter = { poll_id: poll._id, parent_id: null };
  const [roots, total] = await Promise.all([
    ctx.c.comments
      .find(filter)
      .sort({ created_at: -1, _id: 1 })
      .skip((page.page - 1) * page.per_page)
      .limit(page.per_page)
      .toArray(),
    ctx.c.comments.countDocuments(filter),
  ]);
  const replies = roots.length
    ? await ctx.c.comments
        .find({ poll_id: poll._id, root_id: { $in: roots.map((r) => r._id) }, parent_id: { $ne: null } })
        .sort({ created_at: 1, _id: 1 })
        .toArray()
    : [];
  const views = new Map<string, CommentView>();
  for (const c of [...roots, ...replies]) views.set(c._id, { ...commentView(c), replies: [] });
  for (const c of replies) views.get(c.parent_id!)?.replies!.push(views.get(c._id)!);
  return {
    ...paginated(
      roots.map((r) => views.get(r._id)!),
      page,
      total,
    ),
    message: 'Comments of the poll.',
  };
}

/**
 * `DELETE /polls/{poll_id}/comments/{comment_id}`: the poll's owner (or the comment's author)
 * deletes a comment and its replies. 204; 403 for anyone else; 404 unknown comment.
 */
export async function deleteComment(ctx: PollsContext, poll: PollDoc, caller: Caller, commentId: string) {
  const comment = await ctx.c.comments.findOne({ _id: commentId, poll_id: poll._id });
  if (!comment) throw notFound('No comment of this poll has this id.');
  const isOwner = caller.userId !== null && caller.userId === poll.owner_id;
  const isAuthor = caller.userId !== null && caller.userId === comment.user_id;
  if (!isOwner && !isAuthor) throw forbidden('Only the owner of the poll can delete its comments.');
  const gen = await ctx.counters.generation(poll._id);
  const { deletedCount } = await ctx.c.comments.deleteMany({
    poll_id: poll._id,
    $or: [{ _id: commentId }, { ancestors: commentId }],
  });
  await ctx.counters.apply(poll._id, gen, { comments: -deletedCount }, []);
  await ctx.redis.del(recentKey(ctx, poll._id));
}
