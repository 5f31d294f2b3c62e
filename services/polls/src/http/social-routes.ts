import { Router } from 'express';
import { requireUser } from '@fieldhouse/internal-auth';
import type { PollsContext } from '../domain/context.ts';
import { addComment, deleteComment, listComments } from '../domain/comments.ts';
import { findPoll } from '../domain/manage.ts';
import { react } from '../domain/reactions.ts';

/** Reactions and comments (spec 2.2 and 4.2; docs/polls.md, "Reactions" and "Comments"). */
export function socialRoutes(ctx: PollsContext): Router {
  const r = Router();

  /** POST /api/polls/{poll_id}/react `{reaction_type}`: 201 first reaction, 200 replaced; 403, 422, 429. */
  r.post('/api/polls/:id/react', async (req, res) => {
    const out = await react(ctx, await findPoll(ctx, req.params.id), req.caller, req.body);
    res.status(out.status).json({ data: out.data, message: out.message });
  });

  /** POST /api/polls/{poll_id}/comment `{content, parent_id}`: 201 `{data: comment}`; 403, 422, 429. */
  r.post('/api/polls/:id/comment', async (req, res) => {
    const out = await addComment(ctx, await findPoll(ctx, req.params.id), req.caller, req.body);
    res.status(out.status).json({ data: out.data, message: out.message });
  });

  /** GET /api/polls/{poll_id}/comments?page&per_page: threaded, paginated list. */
  r.get('/api/polls/:id/comments', async (req, res) => {
    res.json(await listComments(ctx, await findPoll(ctx, req.params.id), req.query));
  });

  /** DELETE /api/polls/{poll_id}/comments/{comment_id}: the poll's owner; 204. */
  r.delete('/api/polls/:id/comments/:commentId', requireUser, async (req, res) => {
    await deleteComment(
      ctx,
      await findPoll(ctx, req.params.id as string),
      req.caller,
      req.params.commentId as string,
    );
    res.status(204).end();
  });
  return r;
}
