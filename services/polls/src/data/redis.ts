import { createHash } from 'node:crypto';
import type { createClient } from 'redis';

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
