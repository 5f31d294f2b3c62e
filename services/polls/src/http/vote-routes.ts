import type { Request } from 'express';
import { problems } from '../domain/problems.ts';
import { castVote, verifyVote, type VoteResult } from '../domain/voting.ts';
import { route } from './declare.ts';
import { pollParams } from './shared-schemas.ts';
import { VerifyInput, VoteAnswerEnvelope, VoteInput } from './vote-schemas.ts';

const TAGS = ['Voting'];

/**
 * The `Idempotency-Key` header of a vote (docs/polls.md, "Retrying a vote"): 1 to 255 visible
 * ASCII characters, or absent.
 * @throws ProblemError `invalid_idempotency_key` naming the header.
 */
function idempotencyKeyOf(req: Request): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && /^[\x21-\x7e]{1,255}$/.test(value)) return value;
  throw problems.invalidIdempotencyKey();
}

/** The answer of a vote result: 202 while it waits for its password, else 201 (`Idempotent-Replayed` for a retry). */
const voteReply = (result: VoteResult) => ({
  status: result.outcome === 'pending' ? 202 : 201,
  ...(result.outcome === 'replayed' ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
  body: { data: result.data, message: result.message },
});

/** Voting and the one-time password flow (spec 2.2 and 4.2; docs/polls.md, "Voting"). */
export const voteRoutes = [
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/vote',
    operationId: 'vote',
    summary: 'Vote: exactly one option per section (spec 2.2)',
    description:
      'The voter is the signed-in user, else `voter_fingerprint` with the client IP. 201 counted; 202 held for a ' +
      'one-time password (polls with `settings.require_verification`: a 6-digit password is e-mailed to the voter, ' +
      'the signed-in user or `voter_email`; `POST /api/polls/{poll_id}/verify` counts the vote). Voting again ' +
      'while a live pending vote exists is 403 `otp_required` (spec 5.7: "An unauthenticated request yields 401, ' +
      'and a request needing a one-time password or lacking permission yields 403").',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    headers: {
      'Idempotency-Key': {
        description:
          'A key per vote (a UUID): a retry with the same key by the same voter answers the original vote ' +
          '(201, `Idempotent-Replayed: true`) instead of a second vote or `vote_limit_reached` ' +
          '(docs/polls.md, "Retrying a vote").',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      },
    },
    body: VoteInput,
    parseBody: 'by-use-case',
    responses: {
      201: {
        description: 'Counted (or, with `Idempotent-Replayed: true`, counted before with this key)',
        body: VoteAnswerEnvelope,
        headers: {
          'Idempotent-Replayed': {
            description: '`true` when this answers a retry: the vote was counted before with this key.',
            schema: { type: 'string', enum: ['true'] },
          },
        },
      },
      202: { description: 'Held until the one-time password is given', body: VoteAnswerEnvelope },
    },
    problems: {
      400: '`invalid_idempotency_key`: the Idempotency-Key header is malformed',
      401: 'The poll is for signed-in users',
      403: '`otp_required`: a one-time password is required (a pending vote awaits it)',
      404: 'Unknown poll',
      409: '`concurrent_vote`: another vote of this voter was being counted (votes remain)',
      422:
        'Bad body or sections (`errors` has `votes.<section id>`), poll not open (`poll_not_open`), vote limit ' +
        '(`vote_limit_reached`), `idempotency_key_reused` (same key, other choices)',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const result = await castVote(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        input: readBody,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        // The one-time password e-mail's language: French when the voter prefers it, else English.
        language: req.acceptsLanguages('en', 'fr') === 'fr' ? 'fr' : 'en',
      });
      return voteReply(result);
    },
  }),
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/verify',
    operationId: 'verifyVote',
    summary: 'Confirm a pending vote with its one-time password',
    description:
      'A wrong password is 422 `otp_invalid` with `attempts_left`; after `OTP_MAX_ATTEMPTS` (5) wrong ones the ' +
      'pending vote is locked (422 `otp_locked`) until it expires; after `OTP_TTL_SECONDS` (600 s) it is 422 ' +
      '`otp_expired` and a new vote sends a new password; a confirmed one is 422 `otp_used`.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    body: VerifyInput,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Counted', body: VoteAnswerEnvelope } },
    problems: {
      404: 'Unknown poll, or no pending vote has this code',
      409: '`concurrent_vote`: another vote of this voter was being counted',
      422: '`otp_invalid` (with `attempts_left`), `otp_locked`, `otp_expired`, `otp_used`, poll not open, vote limit',
    },
    handler: async ({ params, readBody }, ctx, req) =>
      voteReply(await verifyVote(ctx, { pollId: params.poll_id, actor: req.caller, input: readBody })),
  }),
];
