import { Joi } from '@fieldhouse/config';
import type { CommentInput as CommentInputType } from '../domain/comments.ts';
import { envelope, isoTime, listEnvelope, pollIdSchema } from './shared-schemas.ts';

/** Comments (spec 2.2 "comment body"; docs/polls.md, "Comments"). */

// Plain text: any character but control characters other than tab, line feed, carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The comment body: plain text, a parent comment of the same poll or null, optional author name. */
export const CommentInput = Joi.object<CommentInputType>({
  content: Joi.string()
    .trim()
    .min(1)
    .max(2000)
    .required()
    .custom((v: string, h) => (CONTROL.test(v) ? h.error('string.control') : v))
    .messages({ 'string.control': 'The content must be plain text without control characters.' })
    .description('Plain text, 1 to 2,000 characters (never interpreted as HTML).'),
  parent_id: Joi.string()
    .max(64)
    .allow(null)
    .default(null)
    .description('A comment of the same poll to reply to, or null.'),
  author_name: Joi.string().trim().max(100).allow(''),
  voter_fingerprint: Joi.string().min(8).max(200).description('Required for anonymous callers.'),
});

/** `PATCH .../comments/{comment_id}`: hide the comment (and its replies), or show it again. */
export const CommentModeration = Joi.object<{ hidden: boolean }>({
  hidden: Joi.boolean()
    .required()
    .description('true hides the comment and its replies from everyone but the owner.'),
});

/** `{poll_id}` and `{comment_id}`. */
export const CommentParams = Joi.object<{ poll_id: string; comment_id: string }>({
  poll_id: pollIdSchema().required(),
  comment_id: Joi.string().required().description('The comment id (a string).'),
});

const commentFields = {
  id: Joi.string().required(),
  poll_id: Joi.string().required(),
  parent_id: Joi.string().allow(null).required(),
  content: Joi.string().required(),
  author_name: Joi.string().allow(null).required(),
  user_id: Joi.number().integer().allow(null).required(),
  created_at: isoTime().required(),
  hidden: Joi.boolean()
    .required()
    .description("Hidden by the poll's owner (with its replies): only the owner gets hidden comments."),
};

/** A comment. */
export const Comment = Joi.object(commentFields).id('Comment');

/** A comment with its whole thread in `replies` (oldest first). */
const CommentThread = Joi.object({
  ...commentFields,
  replies: Joi.array().items(Joi.link('#CommentThread')).required(),
}).id('CommentThread');

/** `{data: Comment, message}`. */
export const CommentAnswer = envelope(Comment);

/** `{data: CommentThread[], pagination, message}`. */
export const CommentList = listEnvelope(CommentThread);
