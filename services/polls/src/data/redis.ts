import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import type { Logger } from '@fieldhouse/logger';

/** The Redis client the service uses (node-redis v5). */
export type Redis = ReturnType<typeof createClient>;

const shas = new Map<string, string>();

/** Runs a Lua script by its SHA1, loading it on the first NOSCRIPT answer. */
export async function runScript(
  redis: Redis,
  script: string,
  keys: string[],
  args: string[],
): Promise<unknown> {
  let sha = shas.get(script);
  if (!sha) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  try {
    return await redis.evalSha(sha, { keys, arguments: args });
  } catch (err) {
    if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
    return redis.eval(script, { keys, arguments: args });
  }
}

/**
 * The service's Redis client (not connected yet): commands fail at once while Redis is away
 * (the HTTP layer answers 503 with `Retry-After`; nothing waits for the gateway's timeout), and
 * it reconnects in the background within half a second of Redis returning. Connection errors
 * are logged at most every 10 s.
 */
export function createPollsRedis(url: string, logger: Logger): Redis {
  const redis = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 500),
    },
  });
  let lastLog = 0;
  redis.on('error', (err: Error) => {
    if (Date.now() - lastLog < 10_000) return;
    lastLog = Date.now();
    logger.warn('redis error', { error: err.message });
  });
  return redis;
}
