import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '@fieldhouse/logger';
import { ProblemError, problemBody } from './problem.ts';
import { isStoreUnavailableError } from './store-errors.ts';

/** Writes a problem document with `Content-Type: application/problem+json`. */
export function sendProblem(res: Response, problem: ProblemError): void {
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.toBody()));
}

interface HttpErrorLike {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/**
 * Maps errors thrown by body-parser, the router and friends to a problem, or undefined.
 * A path that is not valid percent-encoded UTF-8 (`/api/events/%ED%A0%80`) makes the router
 * throw a URIError: 400 naming the `path`. Any other error carrying a 4xx status is the
 * client's, with or without `expose`: it keeps its status under a generic detail.
 */
function fromHttpError(err: HttpErrorLike): ProblemError | undefined {
  if (err instanceof URIError)
    return new ProblemError(400, 'The request path is not valid percent-encoded UTF-8.', {
      code: 'bad_request',
      errors: { path: ['The path must be valid percent-encoded UTF-8.'] },
    });
  switch (err.type) {
    case 'entity.parse.failed':
      return new ProblemError(400, 'The request body is not valid JSON.', { code: 'invalid_json' });
    case 'entity.too.large':
      return new ProblemError(413, 'The request body is too large.', { code: 'payload_too_large' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ProblemError(415, 'The request body encoding is not supported.', {
        code: 'unsupported_encoding',
      });
    case 'request.aborted':
      return new ProblemError(400, 'The request was aborted by the client.', { code: 'request_aborted' });
  }
  const status = err.status ?? err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ProblemError(status, 'The request could not be processed.');
  return undefined;
}

/**
 * The last middleware of every app: turns any error into a problem document. A store that is
 * unreachable or does not answer ({@link isStoreUnavailableError}: MongoDB's network and
 * timeout errors, Knex finding no connection, Redis offline...) is a 503 `store_unavailable`
 * with `Retry-After: 2`. Unknown errors become a 500 whose body says nothing internal; they are
 * logged with their stack.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    let problem = err instanceof ProblemError ? err : fromHttpError((err ?? {}) as HttpErrorLike);
    if (!problem && isStoreUnavailableError(err)) {
      // A store unreachable or not answering (docs/reliability.md, "When a store hangs"): the
      // client may retry, never a 500. A write stored before the cut is found by its retry key.
      logger.warn('a store did not answer the request', { err, method: req.method, path: req.path });
      problem = new ProblemError(
        503,
        'The service is briefly unavailable (a data store is unreachable or not answering). Please retry shortly.',
        { code: 'store_unavailable', headers: { 'Retry-After': '2' } },
      );
    }
    if (!problem) {
      logger.error('unhandled error', { err, method: req.method, path: req.path });
      problem = new ProblemError(500, 'An internal error occurred. Please try again later.', {
        code: 'internal_error',
      });
    }
    sendProblem(res, problem);
  };
}

/** 404 problem for any route no router answered. */
export const notFoundHandler: RequestHandler = (req, res) => {
  res
    .status(404)
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(404, `No route for ${req.method} ${req.path}.`, { code: 'not_found' })));
};
