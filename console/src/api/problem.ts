/**
 * A problem document (RFC 9457) as every Fieldhouse API answers errors (docs/errors.md):
 * `status`, `title`, `detail`, a stable `code`, and for 422 `errors` (field → messages).
 */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: Record<string, string[]>;
  [extension: string]: unknown;
}

/**
 * A refused API call. `problem` is the answer's problem document (or one made from the status
 * when the body was not one); `retryAfterSeconds` comes from `Retry-After` on 429 and 503.
 */
export class ApiError extends Error {
  readonly problem: Problem;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(problem: Problem, retryAfterSeconds?: number) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.name = 'ApiError';
    this.problem = problem;
    this.status = problem.status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The messages of one field of a 422 (`errors[field]`), or undefined. */
  fieldErrors(field: string): string[] | undefined {
    return this.problem.errors?.[field];
  }
}

/** An error thrown by fetch itself (offline, DNS, connection refused): status 0. */
export const networkError = (cause: unknown) =>
  new ApiError({ status: 0, title: 'Network error', detail: String((cause as Error)?.message ?? cause) });

/** Builds the {@link ApiError} of a non-2xx answer whose body (maybe a problem) was `body`. */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  const retry = Number(response.headers.get('Retry-After'));
  const problem: Problem =
    body && typeof body === 'object' && 'status' in body
      ? (body as Problem)
      : { status: response.status, title: response.statusText || `HTTP ${response.status}` };
  return new ApiError(problem, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}
