/**
 * What the gateway itself may answer on any route it proxies, before or instead of the service
 * (design.md: identity, rate limits, routing). Each is a problem document.
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
  for (const item of Object.values(copy.paths ?? {}))
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const responses = ((op as Operation).responses ??= {});
      for (const [status, description] of Object.entries(GATEWAY_ANSWERS))
        responses[status] ??= {
          description,
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
    }
  return copy;
}
