import { ProblemError } from '@fieldhouse/problem';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
]);

/**
 * The problem the gateway answers when a service fails it, naming the service, never its host:
 * 504 `upstream_timeout` when it did not answer in time, 502 `upstream_unavailable` when it
 * could not be reached, else 502 `bad_gateway`.
 */
export function upstreamProblem(service: string, err: { code?: string }, timedOut: boolean): ProblemError {
  return timedOut || err.code === 'ETIMEDOUT'
    ? new ProblemError(504, `The ${service} service did not answer in time. Please try again later.`, {
        code: 'upstream_timeout',
      })
    : new ProblemError(502, `The ${service} service is unavailable. Please try again later.`, {
        code: UNAVAILABLE_CODES.has(err.code ?? '') ? 'upstream_unavailable' : 'bad_gateway',
      });
}
