import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { logContext } from '@fieldhouse/logger';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id: the caller's `X-Request-Id` when well-formed, else a new UUID. */
    id: string;
  }
}

/**
 * Gives every request an id (kept from `X-Request-Id` when it is 1-128 safe characters),
 * echoes it in the response header and runs the rest of the chain inside {@link logContext}
 * so every log line carries it.
 */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  logContext.run({ requestId: id }, next);
};
