import type { ErrorRequestHandler } from 'express';
import { ProblemError } from '@fieldhouse/problem';

/** node-redis errors raised while Redis cannot be reached (names of @redis/client's classes). */
const REDIS_AWAY = new Set([
  'ClientOfflineError',
  'ClientClosedError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'DisconnectsClientError',
  'ReconnectStrategyError',
]);
/** MongoDB driver errors raised while the database cannot be reached or does not answer. */
const MONGO_AWAY = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoTopologyClosedError',
]);
const NET_AWAY = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether `err` says a store (Redis, MongoDB) is unreachable or not answering rather than that
 * a request is wrong. A bulk write cut by a network timeout (`MongoBulkWriteError`, the votes'
 * group insert) carries the network error as its `errorResponse`, another error as its
 * `cause`: those are looked into too.
 */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  const e = err as {
    name?: string;
    constructor?: { name?: string };
    code?: string;
    cause?: unknown;
    errorResponse?: unknown;
  } | null;
  if (!e || typeof e !== 'object' || depth > 3) return false;
  const name = e.constructor?.name ?? e.name ?? '';
  if (REDIS_AWAY.has(name) || MONGO_AWAY.has(name) || NET_AWAY.has(e.code ?? '')) return true;
  return isStoreUnavailable(e.cause, depth + 1) || isStoreUnavailable(e.errorResponse, depth + 1);
}

/**
 * Error middleware of the polls routes (docs/polls.md, "When Redis or MongoDB is away"): an
 * unreachable store answers 503 `store_unavailable` with `Retry-After: 2` (seconds) instead of
 * a 500 or a request left waiting; a vote stored before the failure is counted later by the
 * reconciler, and its retry with the same `Idempotency-Key` answers it. Other errors pass on.
 */
export const storeUnavailable: ErrorRequestHandler = (err, _req, _res, next) => {
  if (!isStoreUnavailable(err)) return next(err);
  next(
    new ProblemError(
      503,
      'Polls are briefly unavailable (a data store is unreachable). Please retry shortly.',
      {
        code: 'store_unavailable',
        headers: { 'Retry-After': '2' },
      },
    ),
  );
};
