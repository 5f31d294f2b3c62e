import { STATUS_CODES } from 'node:http';

/** Field name to list of messages, as Laravel's 422 `errors` (e.g. `{"email": ["The email is taken."]}`). */
export type FieldErrors = Record<string, string[]>;

/**
 * Appends `message` to `errors[field]`. Safe for any field name: `__proto__` or `constructor`
 * from a client's body become plain keys, never the object's prototype.
 */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  if (Object.hasOwn(errors, field)) errors[field]!.push(message);
  else
    Object.defineProperty(errors, field, {
      value: [message],
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/** An RFC 9457 problem document that is also Laravel-compatible (design.md, "Errors"). */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Same human sentence as `detail`, for Laravel-era clients. */
  message: string;
  errors?: FieldErrors;
  /** Stable machine-readable code, e.g. `validation_failed`, `rate_limited`. */
  code?: string;
  [extension: string]: unknown;
}

export interface ProblemInit {
  code?: string;
  errors?: FieldErrors;
  /** Response headers to set with the problem (e.g. `Retry-After`). */
  headers?: Record<string, string>;
  /** Extension members added to the body (RFC 9457 section 3.2). */
  extensions?: Record<string, unknown>;
}

/** An error that becomes a problem response with its status; never shows internals. */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(status: number, detail: string, init: ProblemInit = {}) {
    super(detail);
    this.name = 'ProblemError';
    this.status = status;
    this.code = init.code;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.extensions = init.extensions ?? {};
  }

  /** The JSON body of this problem. */
  toBody(): ProblemBody {
    return problemBody(this.status, this.message, this);
  }
}

/** Builds a problem body; `type` is `about:blank` unless a code is given. */
export function problemBody(status: number, detail: string, init: ProblemInit = {}): ProblemBody {
  return {
    ...init.extensions,
    type: init.code ? `urn:fieldhouse:problem:${init.code.replaceAll('_', '-')}` : 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    message: detail,
    ...(init.errors ? { errors: init.errors } : {}),
    ...(init.code ? { code: init.code } : {}),
  };
}

export const badRequest = (detail: string, init?: ProblemInit) =>
  new ProblemError(400, detail, { code: 'bad_request', ...init });
export const unauthenticated = (detail = 'Unauthenticated.', init?: ProblemInit) =>
  new ProblemError(401, detail, { code: 'unauthenticated', ...init });
export const forbidden = (detail = 'This action is unauthorized.', init?: ProblemInit) =>
  new ProblemError(403, detail, { code: 'forbidden', ...init });
export const notFound = (detail = 'Not found.', init?: ProblemInit) =>
  new ProblemError(404, detail, { code: 'not_found', ...init });
export const conflict = (detail: string, init?: ProblemInit) =>
  new ProblemError(409, detail, { code: 'conflict', ...init });
export const payloadTooLarge = (detail = 'The request body is too large.', init?: ProblemInit) =>
  new ProblemError(413, detail, { code: 'payload_too_large', ...init });
/** 429 with `Retry-After` (whole seconds, at least 1); code `rate_limited` unless `init` says. */
export const tooManyRequests = (detail: string, retryAfterSeconds: number, init?: ProblemInit) =>
  new ProblemError(429, detail, {
    code: 'rate_limited',
    ...init,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))), ...init?.headers },
  });

/**
 * 422 with Laravel's `errors` map. The detail is the first message, followed by
 * "(and N more errors)" as Laravel does, so a client showing only `message` still helps.
 */
export function validationFailed(errors: FieldErrors, init?: ProblemInit): ProblemError {
  const all = Object.values(errors).flat();
  const first = all[0] ?? 'The given data was invalid.';
  const more = all.length - 1;
  const detail = more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
  return new ProblemError(422, detail, { code: 'validation_failed', ...init, errors });
}

/** 422 for one field, e.g. `unprocessable('email', 'The email is unknown.')`. */
export const unprocessable = (field: string, message: string, init?: ProblemInit) =>
  validationFailed({ [field]: [message] }, init);
