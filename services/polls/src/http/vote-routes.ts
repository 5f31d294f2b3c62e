import { Router } from 'express';
import type { PollsContext } from '../domain/context.ts';
import { findPoll } from '../domain/manage.ts';
import { castVote, verifyVote } from '../domain/voting.ts';
import { notFound } from '@fieldhouse/problem';

/** Voting and the one-time password flow (spec 2.2 and 4.2; docs/polls.md, "Voting"). */
export function voteRoutes(ctx: PollsContext): Router {
  const r = Router();

  /**
   * POST /api/polls/{poll_id}/vote: 201 counted, 202 held for a one-time password; `{data:
   * {vote, requires_verification, verification_code, results, total_votes, remaining_votes},
   * message}`. 401 (authenticated polls), 403 `otp_required`, 404, 409 `concurrent_vote`,
   * 422 (bad sections, poll not open, vote limit).
   */
  r.post('/api/polls/:id/vote', async (req, res) => {
    const [poll, gen] = await Promise.all([
      ctx.polls.get(req.params.id),
      ctx.counters.generation(req.params.id),
    ]);
    if (!poll) throw notFound('No poll has this id.');
    const out = await castVote(ctx, poll, req.caller, req.body, gen);
    res.status(out.status).json({ data: out.data, message: out.message });
  });

  /** POST /api/polls/{poll_id}/verify `{verification_code, password}`: counts a pending vote (201). */
  r.post('/api/polls/:id/verify', async (req, res) => {
    const poll = await findPoll(ctx, req.params.id);
    const out = await verifyVote(ctx, poll, req.body);
    res.status(out.status).json({ data: out.data, message: out.message });
  });
  return r;
}
