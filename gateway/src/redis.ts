import { createClient } from 'redis';
import type { Logger } from '@fieldhouse/logger';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * A Redis client for the rate-limit store that never makes a request wait on Redis:
 * commands fail at once while disconnected (no offline queue), and it reconnects in the
 * background with backoff up to 2 s. Connection errors are logged, at most every 10 s.
 */
export function createRedis(url: string, logger: Logger): RedisClient {
  let lastLog = 0;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  client.on('error', (err: Error) => {
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      logger.warn('redis error', { error: err.message });
    }
  });
  client
    .connect()
    .catch((err: unknown) =>
      logger.warn('redis connect failed; retrying in background', { error: String(err) }),
    );
  return client;
}

/** Resolves when the client is ready or after `ms`, whichever comes first (start-up never blocks on Redis). */
export function readyOrTimeout(client: RedisClient, ms: number): Promise<void> {
  if (client.isReady) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
