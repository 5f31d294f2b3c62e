/** Driver errors raised while a store cannot be reached or does not answer (class names). */
const UNAVAILABLE_NAMES = new Set([
  // MongoDB
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoTopologyClosedError',
  // Knex: no pooled PostgreSQL connection within acquireConnectionTimeout
  'KnexTimeoutError',
  // node-redis
  'ClientOfflineError',
  'ClientClosedError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
]);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P03']);

/**
 * Whether `err` says a store (MongoDB, PostgreSQL, Redis) is unreachable or not answering: a
 * driver's network or timeout error by class name, a socket error code, PostgreSQL's
 * `admin_shutdown` (57P01) or `cannot_connect_now` (57P03), pg's "Connection terminated", or
 * such an error as the `cause` or `errorResponse` (a bulk write) of another.
 */
export function isStoreUnavailableError(err: unknown, depth = 0): boolean {
  const e = err as {
    name?: string;
    constructor?: { name?: string };
    code?: string | number;
    message?: string;
    cause?: unknown;
    errorResponse?: unknown;
  } | null;
  if (!e || typeof e !== 'object' || depth > 3) return false;
  const name = e.constructor?.name ?? e.name ?? '';
  if (UNAVAILABLE_NAMES.has(name) || UNAVAILABLE_CODES.has(String(e.code ?? ''))) return true;
  if (typeof e.message === 'string' && /^Connection terminated|^Query read timeout/.test(e.message))
    return true;
  return isStoreUnavailableError(e.cause, depth + 1) || isStoreUnavailableError(e.errorResponse, depth + 1);
}
