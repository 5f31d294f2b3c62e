import { Router, type Request } from 'express';
import type { PollsContext } from '../domain/context.ts';
import { newId } from '../domain/ids.ts';
import { findPoll } from '../domain/manage.ts';
import { castVote, verifyVote, type ReservedVote } from '../domain/voting.ts';
import { ProblemError, notFound } from '@fieldhouse/problem';

/**
 * The `Idempotency-Key` header of a vote (docs/polls.md, "Retrying a vote"): 1 to 255 visible
 * ASCII characters, or absent.
 * @throws ProblemError 400 `invalid_idempotency_key` naming the header.
 */
function idempotencyKeyOf(req: Request): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && /^[\x21-\x7e]{1,255}$/.test(value)) return value;
  throw new ProblemError(400, 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
    code: 'invalid_idempotency_key',
    errors: { 'Idempotency-Key': ['1 to 255 visible ASCII characters.'] },
  });
}

/** Voting and the one-time password flow (spec 2.2 and 4.2; docs/polls.md, "Voting"). */
export function voteRoutes(ctx: PollsContext): Router {
  const r = Router();

  /**
   * POST /api/polls/{poll_id}/vote: 201 counted, 202 held for a one-time password; `{data:
   * {vote, requires_verification, verification_code, results, total_votes, remaining_votes},
   * message}`. Optional `Idempotency-Key` header: a retry answers the original vote (201, with
   * `Idempotent-Replayed: true`). 400 bad `Idempotency-Key`, 401 (authenticated polls), 403
   * `otp_required`, 404, 409 `concurrent_vote`, 422 (bad sections, poll not open, vote limit,
   * `idempotency_key_reused`), 503 with `Retry-After` while the counters' store is unreachable.
   */
  r.post('/api/polls/:id/vote', async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req);
    const voteId = newId();
    // The poll and the vote's reservation in parallel; no counters yet: countVote reserves.
    const [poll, reservation] = await Promise.all([
      ctx.polls.get(req.params.id),
      ctx.counters.tryReserve(req.params.id, voteId),
    ]);
    const reserved: ReservedVote | undefined = reservation
      ? { voteId, reservation, taken: false }
      : undefined;
    try {
      if (!poll) throw notFound('No poll has this id.');
      const out = await castVote(ctx, poll, req.caller, req.body, {
        ...(reserved ? { reserved } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      if (out.replayed) res.set('Idempotent-Replayed', 'true');
      res.status(out.status).json({ data: out.data, message: out.message });
    } finally {
      if (reserved && !reserved.taken)
        await ctx.counters.release(reserved.reservation).catch(() => undefined);
    }
  });

  /** POST /api/polls/{poll_id}/verify `{verification_code, password}`: counts a pending vote (201). */
  r.post('/api/polls/:id/verify', async (req, res) => {
    const poll = await findPoll(ctx, req.params.id);
    const out = await verifyVote(ctx, poll, req.body);
    res.status(out.status).json({ data: out.data, message: out.message });
  });
  return r;
}
