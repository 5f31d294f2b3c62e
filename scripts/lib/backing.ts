import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFerretDb, startFerretDb } from './ferretdb.ts';
import { ensureVersityGw, startVersityGw, TEST_S3_CREDENTIALS } from './versitygw.ts';
import { freePort, isListening } from './net.ts';

/** The standard local addresses of the backing services, used when their variable is unset. */
export const LOCAL_BACKING = [
  { env: 'POSTGRES_URL', port: 5432, url: 'postgres://postgres@127.0.0.1:5432/postgres' },
  { env: 'REDIS_URL', port: 6379, url: 'redis://127.0.0.1:6379' },
  { env: 'AMQP_URL', port: 5672, url: 'amqp://guest:guest@127.0.0.1:5672' },
] as const;

/**
 * Fills in the backing-service variables the tests and the local stack read, leaving every one
 * already set alone: PostgreSQL, Redis and RabbitMQ on their standard local ports when
 * something listens there; MongoDB from `MONGO_URL`, else a FerretDB started here (built on
 * first use); with `s3` (the tests), an S3 server from `S3_URL`, else a versitygw started here
 * (built on first use) as `S3_URL=http://<access key>:<secret>@127.0.0.1:<port>`. Resolves with
 * what it started, to stop at the end.
 */
export async function provideBackingServices(
  root: string,
  opts: { ferretDataDir?: string; ferretPort?: number; s3?: boolean } = {},
): Promise<{ started: ChildProcess[] }> {
  for (const s of LOCAL_BACKING) {
    if (!process.env[s.env] && (await isListening(s.port))) process.env[s.env] = s.url;
  }
  const started: ChildProcess[] = [];
  if (!process.env.MONGO_URL) {
    const bin = ensureFerretDb(root);
    const port = opts.ferretPort ?? (await freePort());
    const dataDir = opts.ferretDataDir ?? mkdtempSync(join(tmpdir(), 'ferretdb-'));
    started.push(await startFerretDb(bin, dataDir, port));
    process.env.MONGO_URL = `mongodb://127.0.0.1:${port}`;
  }
  if (opts.s3 && !process.env.S3_URL) {
    const bin = ensureVersityGw(root);
    const port = await freePort();
    started.push(await startVersityGw(bin, mkdtempSync(join(tmpdir(), 'versitygw-')), port));
    const { accessKeyId, secretAccessKey } = TEST_S3_CREDENTIALS;
    process.env.S3_URL = `http://${accessKeyId}:${secretAccessKey}@127.0.0.1:${port}`;
  }
  return { started };
}
