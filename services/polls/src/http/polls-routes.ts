import { Router, type Request, type Response } from 'express';
import { paginated, parsePageQuery } from '@fieldhouse/http';
import { requireUser } from '@fieldhouse/internal-auth';
import type { PollsContext } from '../domain/context.ts';
import { createPoll, deletePoll, findPoll, ownedPoll, setClosed, updatePoll } from '../domain/manage.ts';
import { parseCreatePoll, parseUpdatePoll } from '../domain/poll-input.ts';
import { pollView } from '../domain/views.ts';

/** Poll management (docs/polls.md, "Polls"): signed-in users only; only the owner changes a poll. */
export function pollsManagementRoutes(ctx: PollsContext): Router {
  const r = Router();
  const uid = (req: { caller: { userId: number | null } }) => req.caller.userId!;

  /** POST /api/polls: creates a poll. 201 `{data: poll (with sections and options), message}`; 401; 422. */
  r.post('/api/polls', requireUser, async (req, res) => {
    const poll = await createPoll(ctx, uid(req), parseCreatePoll(req.body));
    res
      .status(201)
      .location(`/api/polls/${poll._id}`)
      .json({ data: pollView(poll), message: 'Poll created.' });
  });

  /** GET /api/polls?page&per_page: the caller's own polls, newest first (pagination envelope). */
  r.get('/api/polls', requireUser, async (req, res) => {
    const page = parsePageQuery(req.query);
    const { items, total } = await ctx.polls.listByOwner(
      uid(req),
      (page.page - 1) * page.per_page,
      page.per_page,
    );
    res.json({ ...paginated(items.map(pollView), page, total), message: 'Your polls.' });
  });

  /** GET /api/polls/{poll_id}: one poll with sections and options; anyone may read it. 404. */
  r.get('/api/polls/:id', async (req, res) => {
    const poll = await findPoll(ctx, req.params.id);
    res.json({ data: pollView(poll), message: 'Poll.' });
  });

  /** PATCH (or PUT) /api/polls/{poll_id}: owner only; 422 when removing an option with votes. */
  const update = async (req: Request, res: Response) => {
    const input = parseUpdatePoll(req.body);
    const poll = await ownedPoll(ctx, req.params.id as string, uid(req));
    res.json({ data: pollView(await updatePoll(ctx, poll, input)), message: 'Poll updated.' });
  };
  r.patch('/api/polls/:id', requireUser, update);
  r.put('/api/polls/:id', requireUser, update);

  /** POST /api/polls/{poll_id}/close and /reopen: owner only; 200 with the poll. */
  for (const [action, closed] of [
    ['close', true],
    ['reopen', false],
  ] as const) {
    r.post(`/api/polls/:id/${action}`, requireUser, async (req, res) => {
      const poll = await ownedPoll(ctx, req.params.id as string, uid(req));
      const next = await setClosed(ctx, poll, closed);
      res.json({ data: pollView(next), message: closed ? 'Poll closed.' : 'Poll reopened.' });
    });
  }

  /** DELETE /api/polls/{poll_id}: owner only; 204; votes, reactions, comments go with it. */
  r.delete('/api/polls/:id', requireUser, async (req, res) => {
    await deletePoll(ctx, await ownedPoll(ctx, req.params.id as string, uid(req)));
    res.status(204).end();
  });
  return r;
}
