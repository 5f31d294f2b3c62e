import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import { randomUuid } from '../poll-public/uuid.ts';
import type { VoteAnswer } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';
import type { KindAnswer } from './kinds/KindSection.tsx';

/** One vote as the form gives it. */
export interface VoteRequest {
  /** Section id to option id, one per single section. */
  votes: Record<string, string>;
  /** The answers of the sections that are not single (docs/polls.md, "Section kinds"). */
  answers?: Record<string, KindAnswer>;
  /** Optional; sent as `voter_name` when not blank. */
  voterName: string;
  /** Anonymous voters on polls requiring verification: where the one-time password goes. */
  voterEmail?: string;
  /** Seconds since the form showed (docs/polls.md: `time_spent` is in seconds, 0 to 604,800). */
  timeSpent: number;
}

const MAX_TIME_SPENT = 604_800;

/**
 * `POST /api/polls/{poll_id}/vote`, resolving with the vote answer (201 counted, or 202 held for
 * a one-time password: `requires_verification`). Each attempt carries an `Idempotency-Key`
 * (docs/polls.md, "Retrying a vote"): the same key while the user retries the same choices (a
 * lost answer is then answered again instead of counting twice or meeting the vote limit), a new
 * one once a vote was accepted or the choices changed. Refusals throw `ApiError` (403
 * `otp_required`, 422 `poll_not_open`/`vote_limit_reached`/`errors.votes.<section>`, 429...).
 */
export function useVote(pollId: string) {
  const attempt = useRef<{ choices: string; key: string } | null>(null);
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: async (req: VoteRequest): Promise<VoteAnswer> => {
      const choices = JSON.stringify([req.votes, req.answers ?? {}, req.voterName, req.voterEmail ?? '']);
      if (attempt.current?.choices !== choices) attempt.current = { choices, key: randomUuid() };
      const name = req.voterName.trim();
      const answer = await call(
        pollsApi.POST('/api/polls/{poll_id}/vote', {
          params: { path: { poll_id: pollId }, header: { 'Idempotency-Key': attempt.current.key } },
          body: {
            votes: req.votes,
            ...(req.answers && Object.keys(req.answers).length ? { answers: req.answers } : {}),
            voter_fingerprint: voterFingerprint(),
            time_spent: Math.min(MAX_TIME_SPENT, Math.max(0, Math.round(req.timeSpent))),
            ...(name ? { voter_name: name } : {}),
            ...(req.voterEmail ? { voter_email: req.voterEmail.trim() } : {}),
          },
        }),
      );
      attempt.current = null; // accepted: the next vote is a new one, with a new key
      return answer.data;
    },
  });
}

/**
 * `POST /api/polls/{poll_id}/verify` `{verification_code, password}`: counts the held vote (the
 * vote answer), or throws `ApiError` 422 `otp_invalid` (with `attempts_left`), `otp_locked`,
 * `otp_expired`, `otp_used`, or 404 for an unknown code.
 */
export function useVerify(pollId: string) {
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: async (req: { code: string; password: string }): Promise<VoteAnswer> =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/verify', {
            params: { path: { poll_id: pollId } },
            body: { verification_code: req.code, password: req.password },
          }),
        )
      ).data,
  });
}
