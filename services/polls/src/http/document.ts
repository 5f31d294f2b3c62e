import { openApiDocument, type OpenApiDocument } from '@fieldhouse/http';
import { pollsRouteSpecs } from './router.ts';

/**
 * The polls service's OpenAPI 3.1 document (served at /openapi.json, shown by the gateway under
 * /docs), generated from the route declarations (http/router.ts, `pollsRouteSpecs`).
 */
export const pollsDocument: OpenApiDocument = openApiDocument({
  title: 'Fieldhouse Area B: polls',
  description:
    'Polls with sections and options, voting (with an optional one-time password confirmed by e-mail), ' +
    'live results, reactions and comments (spec 2.2, 4.2). Every answer is `{data, message}`; every error is an ' +
    'RFC 9457 problem document. Ids of polls, sections, options and comments are strings. Decisions: ' +
    'docs/polls.md.\n\n' +
    '**One-time password flow** (polls with `settings.require_verification`): 1. `POST /api/polls/{poll_id}/vote` ' +
    'answers 202 with `requires_verification: true` and a `verification_code` naming the pending vote; a 6-digit ' +
    'password is e-mailed to the voter (the signed-in user, else `voter_email`). 2. `POST /api/polls/{poll_id}/verify` ' +
    '`{verification_code, password}` counts it (201). A wrong password is 422 `otp_invalid` with `attempts_left`; ' +
    'after `OTP_MAX_ATTEMPTS` (5) wrong ones the pending vote is locked (422 `otp_locked`) until it expires; after ' +
    '`OTP_TTL_SECONDS` (600 s) it is 422 `otp_expired` and a new vote sends a new password. Voting again while a ' +
    'live pending vote exists is 403 `otp_required` ("a one-time password is required").',
  routes: pollsRouteSpecs,
  // The JWT check and the store watch before any route, the error middleware's 503 (what the base
  // app answers for any route, 400/413/415/422, libs/http adds by itself).
  commonProblems: {
    401: 'Not signed in (spec 5.7: "An unauthenticated request yields 401"), or not through the gateway',
    503: '`store_unavailable`: Redis or MongoDB is unreachable or not answering; retry after `Retry-After` seconds (2)',
  },
});
