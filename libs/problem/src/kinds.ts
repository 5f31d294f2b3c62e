/**
 * The kinds of refusal a use case can give, and the HTTP status of each. Domain code names a
 * kind in its problem catalogue ({@link defineProblems}); this table, read only by the HTTP edge
 * and by `npm run docs:problems`, is the one place a kind becomes a status.
 */
export const KIND_STATUS = {
  /** The request cannot be read (a malformed header, an unknown query parameter value). */
  bad_request: 400,
  /** No identity, or an identity that is not accepted. */
  unauthenticated: 401,
  /** The caller may see the resource but not do this to it. */
  forbidden: 403,
  /** The resource does not exist, or the caller may not know that it does. */
  not_found: 404,
  /** The resource's state forbids the change (published, closed, already taken). */
  conflict: 409,
  /** The resource existed and is gone for good (a used setup code, an expired link). */
  gone: 410,
  /** The body or a file is larger than allowed. */
  too_large: 413,
  /** The body's media type is not one the route takes. */
  unsupported_media_type: 415,
  /** The command breaks a rule of its fields (Laravel's `errors`). */
  invalid: 422,
  /** Too many attempts or requests: retry after `Retry-After`. */
  rate_limited: 429,
  /** A dependency the use case needs answered wrongly. */
  bad_gateway: 502,
  /** The service cannot serve the request now: retry after `Retry-After`. */
  unavailable: 503,
  /** A dependency the use case needs did not answer in time. */
  gateway_timeout: 504,
} as const;

export type ProblemKind = keyof typeof KIND_STATUS;

/** The HTTP status of a problem kind (`invalid` → 422). */
export const statusOfKind = (kind: ProblemKind): number => KIND_STATUS[kind];
