import type { Logger } from '@fieldhouse/logger';

/**
 * Stops a worker process cleanly on SIGINT or SIGTERM: runs `steps` once, in order (consumers
 * first, then the broker, pools and clients they used), logging a step that fails and going on
 * with the next, then exits with code 0.
 */
export function stopOnSignals(logger: Logger, steps: Array<() => unknown>): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping');
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        logger.warn('a shutdown step failed', { err });
      }
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
