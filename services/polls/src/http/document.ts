import { openApiDocument, type JsonSchema, type OpenApiDocument } from '@fieldhouse/http';
import { pollsRouteSpecs } from './routes.ts';

const RETRY_AFTER = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 1 },
};

/**
 * joi-to-json writes a RegExp key pattern (`Joi.object().pattern(/^/, value)`) both as
 * `patternProperties` and as a stray property named after the RegExp (`"/^/"`): the stray one
 * goes, so maps of ids are documented as what they are.
 */
function dropRegExpProperties(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropRegExpProperties);
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  const patterns = schema.patternProperties as Record<string, unknown> | undefined;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (patterns && properties) for (const p of Object.keys(patterns)) delete properties[`/${p}/`];
  Object.values(schema).forEach(dropRegExpProperties);
}

/** Declares `Retry-After` on every 429 and 503 problem (route problems carry no headers of their own). */
function withRetryAfter(doc: OpenApiDocument): void {
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) {
      const responses = (op as { responses?: Record<string, JsonSchema> }).responses ?? {};
      for (const status of ['429', '503'])
        if (responses[status])
          responses[status] = { ...responses[status], headers: { 'Retry-After': RETRY_AFTER } };
    }
}

/**
 * The polls service's OpenAPI 3.1 document (served at /openapi.json, shown by the gateway under
 * /docs), generated from the route declarations (http/routes.ts).
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
  // What the app answers before any route (the JWT check, the body parser, the storable-text
  // checks of body and query) and the store-unavailable handler after any route.
  commonProblems: {
    400: '`invalid_json`: the body is not JSON; `bad_request`: the path is not valid percent-encoded UTF-8',
    401: 'Not signed in (spec 5.7: "An unauthenticated request yields 401"), or not through the gateway',
    413: '`payload_too_large`: the body is over `BODY_LIMIT`',
    415: '`unsupported_encoding`: the body encoding is not supported',
    422:
      '`validation_failed`: a string no store can hold (the NUL character, an unpaired surrogate) in the ' +
      'body or the query, named in `errors`',
    503: '`store_unavailable`: Redis or MongoDB is unreachable; retry after `Retry-After` seconds (2)',
  },
});
dropRegExpProperties(pollsDocument);
withRetryAfter(pollsDocument);
