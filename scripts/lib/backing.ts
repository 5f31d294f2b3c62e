import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, ensureDatabase } from '@fieldhouse/db';
import {
  ensureFerretDb,
  ferretDbHandler,
  mongoLiveness,
  startFerretDbProcess,
  type FerretDbStorage,
} from './ferretdb.ts';
import { ensureVersityGw, startVersityGw, TEST_S3_CREDENTIALS } from './versitygw.ts';
import { freePort, isListening, waitForPort } from './net.ts';
import { stopAll, Supervisor, type RestartPolicy } from './processes.ts';

/** The standard local addresses of the backing services, used when their variable is unset. */
export const LOCAL_BACKING = [
  { env: 'POSTGRES_URL', port: 5432, url: 'postgres://postgres@127.0.0.1:5432/postgres' },
  { env: 'REDIS_URL', port: 6379, url: 'redis://127.0.0.1:6379' },
  { env: 'AMQP_URL', port: 5672, url: 'amqp://guest:guest@127.0.0.1:5672' },
] as const;

/** What {@link provideBackingServices} started, to stop at the end. */
export interface BackingServices {
  /** The FerretDB started here (none when `MONGO_URL` was set), under its supervisor. */
  ferretdb: Supervisor | undefined;
  /** Stops what was started here and drops a temporary FerretDB database. */
  stop: () => Promise<void>;
}

/**
 * Fills in the backing-service variables the tests and the local stack read, leaving every one
 * already set alone: PostgreSQL, Redis and RabbitMQ on their standard local ports when
 * something listens there; MongoDB from `MONGO_URL`, else a FerretDB started here (built on
 * first use; docs/polls.md, "The embedded store"); with `s3` (the tests), an S3 server from
 * `S3_URL`, else a versitygw started here (built on first use) as
 * `S3_URL=http://<access key>:<secret>@127.0.0.1:<port>`.
 *
 * FerretDB keeps its data in PostgreSQL (`FERRETDB_HANDLER=sqlite`: in SQLite files under
 * `ferretDataDir`): in the database `ferretDatabase` (kept), else in a temporary one dropped by
 * `stop()`. It runs under a {@link Supervisor} whose liveness check is a real write and read
 * with a deadline: a FerretDB that exits, or runs and stops answering for 10 s, is restarted
 * (docs/reliability.md, "Liveness").
 */
export async function provideBackingServices(
  root: string,
  opts: {
    ferretDataDir?: string;
    ferretPort?: number;
    ferretDatabase?: string;
    s3?: boolean;
    /** Restart policy of FerretDB's supervisor (its liveness check is set here). */
    ferretPolicy?: Omit<RestartPolicy, 'liveness'>;
    /** The database the liveness check writes and reads (the stack's polls database; default `fieldhouse_liveness`). */
    ferretLivenessDb?: string;
  } = {},
): Promise<BackingServices> {
  for (const s of LOCAL_BACKING) {
    if (!process.env[s.env] && (await isListening(s.port))) process.env[s.env] = s.url;
  }
  const started: Array<{ child: ChildProcess }> = [];
  let ferretdb: Supervisor | undefined;
  let temporaryDatabase: string | undefined;
  if (!process.env.MONGO_URL) {
    const bin = ensureFerretDb(root);
    const port = opts.ferretPort ?? (await freePort());
    let storage: FerretDbStorage;
    if (ferretDbHandler() === 'postgresql') {
      if (!process.env.POSTGRES_URL)
        throw new Error(
          'FerretDB keeps its data in PostgreSQL: set POSTGRES_URL (or MONGO_URL, or FERRETDB_HANDLER=sqlite).',
        );
      const name = opts.ferretDatabase ?? `ferretdb_tmp_${randomBytes(4).toString('hex')}`;
      const url = new URL(process.env.POSTGRES_URL);
      url.pathname = `/${name}`;
      await ensureDatabase(url.toString());
      if (!opts.ferretDatabase) temporaryDatabase = url.toString();
      storage = { handler: 'postgresql', postgresUrl: url.toString() };
    } else {
      storage = {
        handler: 'sqlite',
        dataDir: opts.ferretDataDir ?? mkdtempSync(join(tmpdir(), 'ferretdb-')),
      };
    }
    const mongoUrl = `mongodb://127.0.0.1:${port}`;
    ferretdb = new Supervisor('ferretdb', () => startFerretDbProcess(bin, storage, port, root), {
      ...opts.ferretPolicy,
      liveness: mongoLiveness(mongoUrl, 2_000, opts.ferretLivenessDb),
    });
    await waitForPort(port, 20_000);
    process.env.MONGO_URL = mongoUrl;
  }
  if (opts.s3 && !process.env.S3_URL) {
    const bin = ensureVersityGw(root);
    const port = await freePort();
    started.push({ child: await startVersityGw(bin, mkdtempSync(join(tmpdir(), 'versitygw-')), port) });
    const { accessKeyId, secretAccessKey } = TEST_S3_CREDENTIALS;
    process.env.S3_URL = `http://${accessKeyId}:${secretAccessKey}@127.0.0.1:${port}`;
  }
  return {
    ferretdb,
    stop: async () => {
      await Promise.all([ferretdb?.stop(5_000), stopAll(started, 5_000)]);
      if (temporaryDatabase) await dropDatabase(temporaryDatabase);
    },
  };
}
