import { paginated } from '@fieldhouse/http';
import { addComment, deleteComment, hideComment, listComments } from '../domain/comments.ts';
import {
  CommentAnswer,
  CommentInput,
  CommentList,
  CommentModeration,
  CommentParams,
} from './comment-schemas.ts';
import { PageQuery } from './polls-schemas.ts';
import { route, signedIn } from './declare.ts';
import { pollParams } from './shared-schemas.ts';

const TAGS = ['Comments'];

/** Comments (spec 2.2 and 4.2; docs/polls.md, "Comments"). */
export const commentRoutes = [
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/comment',
    operationId: 'addComment',
    summary: 'Comment (plain text, 1 to 2,000 characters); parent_id a comment of the same poll or null',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    body: CommentInput,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'The comment', body: CommentAnswer } },
    problems: {
      401: 'The poll is for signed-in users',
      403: '`comments_disabled`: comments are off',
      404: 'Unknown poll',
      422: 'Bad content or parent_id, or an anonymous caller without `voter_fingerprint`',
      429: '`rate_limited`: too many comments (per voter and poll; see `Retry-After`)',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const comment = await addComment(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        input: readBody,
      });
      return { status: 201, body: { data: comment, message: 'Your comment was added.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/comments',
    operationId: 'listComments',
    summary: 'Top-level comments, newest first, paginated; each with its thread in `replies`',
    description:
      "Comments the poll's owner hid (with their replies) are left out, except for the owner, who gets them " +
      'with `hidden: true`.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: PageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: '`{data: CommentThread[], pagination, message}`', body: CommentList } },
    problems: { 404: 'Unknown poll', 422: '`page` or `per_page` out of range' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listComments(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        page: readQuery,
      });
      const { page, per_page } = readQuery();
      return { body: { ...paginated(items, { page, per_page }, total), message: 'Comments of the poll.' } };
    },
  }),
  route({
    method: 'delete',
    path: '/api/polls/{poll_id}/comments/{comment_id}',
    operationId: 'deleteComment',
    summary: 'Delete a comment and its replies (poll owner, or the author)',
    tags: TAGS,
    middleware: signedIn,
    params: CommentParams,
    notFound: 'No comment of this poll has this id.',
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'Not the owner of the poll nor the author', 404: 'Unknown poll or comment' },
    handler: async ({ params }, ctx, req) => {
      await deleteComment(ctx, { pollId: params.poll_id, commentId: params.comment_id, actor: req.caller });
      return { status: 204 };
    },
  }),
  route({
    method: 'patch',
    path: '/api/polls/{poll_id}/comments/{comment_id}',
    operationId: 'moderateComment',
    summary: "Hide a comment and its replies from everyone but the poll's owner, or show them again (owner)",
    description:
      'Hidden comments leave the list, `recent_comments` and `comments_total` for everyone but the owner; open ' +
      'live-results streams get a new `results` event at once.',
    tags: TAGS,
    middleware: signedIn,
    params: CommentParams,
    notFound: 'No comment of this poll has this id.',
    body: CommentModeration,
    responses: { 200: { description: 'The comment as the owner sees it', body: CommentAnswer } },
    problems: {
      403: 'Not the owner of the poll',
      404: 'Unknown poll or comment',
      422: '`hidden` missing or not a boolean',
    },
    handler: async ({ params, body }, ctx, req) => {
      const comment = await hideComment(ctx, {
        pollId: params.poll_id,
        commentId: params.comment_id,
        hidden: body.hidden,
        actor: req.caller,
      });
      return {
        body: { data: comment, message: comment.hidden ? 'The comment is hidden.' : 'The comment is shown.' },
      };
    },
  }),
];
