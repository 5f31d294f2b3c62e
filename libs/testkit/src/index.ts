import { randomBytes } from 'node:crypto';
import { createLogger } from '@fieldhouse/logger';

export * from './backing.ts';
export * from './postgres.ts';
export * from './issuer.ts';
export * from './process.ts';
export * from './sse.ts';
export * from './problem-assert.ts';
export * from './service-process.ts';
export * from './webhook-receiver.ts';
export * from './asyncapi-check.ts';
export { startSmtpSink, type SmtpSink, type SinkMessage } from '@fieldhouse/smtp-sink';

/** A logger that writes nothing unless `TEST_LOG_LEVEL` is set. */
export const testLogger = (service = 'test') =>
  createLogger({ service, level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A random prefix for RabbitMQ names, so a test run never reads another run's messages. */
export const randomPrefix = (label = 'test') => `${label}.${randomBytes(3).toString('hex')}.`;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns a truthy value, or rejects after `timeoutMs` (25 s by default:
 * a limit for a condition that must come, not a speed target; `npm test`'s concurrent shards on
 * two cores can make a store take seconds, and mocha's own limit is 30 s).
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 25_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** A valid 1×1 PNG (photo uploads in tests). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
