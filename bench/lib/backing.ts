/**
 * Backing services and keys of the benches: each variable when set (`POSTGRES_URL`, `REDIS_URL`,
 * `AMQP_URL`), else the standard local address the tests and the stack use
 * (scripts/lib/backing.ts).
 */
import { generateKeyPairSync } from 'node:crypto';
import { LOCAL_BACKING } from '../../scripts/lib/backing.ts';

const urlOf = (env: (typeof LOCAL_BACKING)[number]['env']) =>
  process.env[env] || LOCAL_BACKING.find((s) => s.env === env)!.url;

/** `base` pointing at database `name` (a PostgreSQL database, a Redis logical database). */
export const withDatabase = (base: string, name: string): string =>
  Object.assign(new URL(base), { pathname: `/${name}` }).toString();

/**
 * The backing services of a bench. Redis gets a logical database of its own (15, or
 * BENCH_REDIS_DB) when its URL names none; the bench's keys also carry the run's prefix.
 */
export function benchBacking(): { postgres: string; redis: string; amqp: string } {
  const redis = urlOf('REDIS_URL');
  const named = !['', '/'].includes(new URL(redis).pathname);
  return {
    postgres: urlOf('POSTGRES_URL'),
    redis: named ? redis : withDatabase(redis, process.env.BENCH_REDIS_DB ?? '15'),
    amqp: urlOf('AMQP_URL'),
  };
}

/** A fresh P-256 private key (PKCS#8 PEM) for the gateway's internal tokens. */
export const signingKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
