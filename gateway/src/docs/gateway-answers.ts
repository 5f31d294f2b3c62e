/**
 * What the gateway itself may answer on any route it proxies, before or instead of the service
 * (design.md: identity, rate limits, routing). Each is a problem document; on the OpenRosa routes
 * also an OpenRosaResponse (`text/xml`) for OpenRosa clients.
 */
const GATEWAY_ANSWERS: Record<string, string> = {
  401: 'Not signed in, or a token or session that is not valid (malformed, expired, revoked) — from the gateway',
  403: 'A session without the X-XSRF-TOKEN header matching its cookie on an unsafe method (`csrf_token_mismatch`) — from the gateway',
  413: 'The body is over the gateway limit (`payload_too_large`)',
  429: 'Too many requests or open streams (`rate_limited`, `too_many_streams`; `Retry-After` in seconds) — from the gateway',
  502: 'The service is unavailable (`upstream_unavailable`) — from the gateway',
  504: 'The service did not answer in time (`upstream_timeout`) — from the gateway',
};

type Operation = { responses?: Record<string, unknown> };
type Document = { paths?: Record<string, Record<string, unknown>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * A copy of a service's OpenAPI document with {@link GATEWAY_ANSWERS} added to every operation
 * that does not declare the status already, so the document served under `/docs` describes
 * every answer a client can get through the gateway.
 */
export function withGatewayAnswers<T extends Document>(document: T): T {
  const copy = structuredClone(document);
  for (const [path, item] of Object.entries(copy.paths ?? {}))
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const responses = ((op as Operation).responses ??= {});
      for (const [status, description] of Object.entries(GATEWAY_ANSWERS)) {
        responses[status] ??= {
          description,
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
        // On the OpenRosa routes the gateway's own refusals are OpenRosaResponse documents
        // (identity/openrosa-refusals.ts) for OpenRosa clients.
        if (OPENROSA_DOC_PATH.test(path)) {
          const answer = responses[status] as { content?: Record<string, unknown> };
          answer.content = { ...answer.content, 'text/xml': answer.content?.['text/xml'] ?? {} };
        }
      }
    }
  return copy;
}

/** The OpenRosa routes of the collection service's document (the form list, a form, its manifest, the submission). */
const OPENROSA_DOC_PATH =
  /^\/api\/v1\/projects\/\{project_id\}\/(?:formList|submission|forms\/\{form_id\}(?:\.xml|\/manifest))$/;
