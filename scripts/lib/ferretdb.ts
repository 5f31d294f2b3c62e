import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startProcess, type LivenessCheck, type Managed, type OutputOptions } from './processes.ts';

const FERRETDB_VERSION = 'v1.24.2';

/**
 * Path of the FerretDB binary in `<root>/.tools/bin`, building it on first use (design.md,
 * "Local machines and tests"): the module pinned in `tools/ferretdb` (go.mod and go.sum) is
 * vendored from the Go module proxy and built. The vendored tree gets the `version.txt` that
 * FerretDB's release process generates (its `go install` build panics without it). Each process
 * builds in a folder of its own and renames the binary into place, so several test runs starting
 * at once on a fresh machine do not vendor into one tree together (a shared one broke the build).
 */
export function ensureFerretDb(root: string): string {
  const bin = join(root, '.tools', 'bin', `ferretdb-${FERRETDB_VERSION}`);
  if (existsSync(bin)) return bin;
  if (spawnSync('go', ['version']).status !== 0) {
    throw new Error(
      'MongoDB is needed: set MONGO_URL to a MongoDB server, or install Go so FerretDB can be built.',
    );
  }
  const build = join(root, '.tools', `ferretdb-build-${process.pid}`);
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build, { recursive: true });
  mkdirSync(join(root, '.tools', 'bin'), { recursive: true });
  for (const f of ['go.mod', 'go.sum', 'tools.go'])
    copyFileSync(join(root, 'tools', 'ferretdb', f), join(build, f));
  console.log(`building FerretDB ${FERRETDB_VERSION} into ${bin} (first run only, about a minute)...`);
  const go = (args: string[]) => {
    const r = spawnSync('go', args, {
      cwd: build,
      stdio: 'inherit',
      env: { ...process.env, GOFLAGS: '-mod=mod' },
    });
    if (r.status !== 0) throw new Error(`go ${args.join(' ')} failed`);
  };
  go(['mod', 'vendor']);
  writeFileSync(
    join(build, 'vendor/github.com/FerretDB/FerretDB/build/version/version.txt'),
    `${FERRETDB_VERSION}\n`,
  );
  const r = spawnSync(
    'go',
    ['build', '-mod=vendor', '-o', `${bin}.${process.pid}`, 'github.com/FerretDB/FerretDB/cmd/ferretdb'],
    {
      cwd: build,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error('building FerretDB failed');
  renameSync(`${bin}.${process.pid}`, bin);
  rmSync(build, { recursive: true, force: true });
  return bin;
}

/** Where FerretDB keeps its data (docs/polls.md, "The embedded store"). */
export type FerretDbStorage =
  { handler: 'postgresql'; postgresUrl: string } | { handler: 'sqlite'; dataDir: string };

/**
 * The handler `FERRETDB_HANDLER` asks for: `postgresql` (the default: its data in a database of
 * the stack's PostgreSQL, writes from many connections at once) or `sqlite` (a folder of SQLite
 * files, one writer at a time; kept to compare, docs/benchmarks.md "The embedded store").
 */
export function ferretDbHandler(): FerretDbStorage['handler'] {
  const handler = process.env.FERRETDB_HANDLER ?? 'postgresql';
  if (handler !== 'postgresql' && handler !== 'sqlite')
    throw new Error(`FERRETDB_HANDLER must be postgresql or sqlite, not ${handler}`);
  return handler;
}

/** FerretDB's arguments: the storage, loopback only, telemetry off, errors only in the log. */
function ferretDbArgs(storage: FerretDbStorage, port: number): string[] {
  const where =
    storage.handler === 'postgresql'
      ? ['--handler=postgresql', `--postgresql-url=${storage.postgresUrl}`]
      : ['--handler=sqlite', `--sqlite-url=file:${storage.dataDir}/`, `--state-dir=${storage.dataDir}`];
  if (storage.handler === 'sqlite') mkdirSync(storage.dataDir, { recursive: true });
  return [
    ...where,
    ...(storage.handler === 'postgresql' ? ['--state-dir=-'] : []),
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    '--log-level=error',
    '--debug-addr=-',
  ];
}

/** Starts one FerretDB process (the supervisor's start function); its output prefixed `ferretdb`. */
export function startFerretDbProcess(
  bin: string,
  storage: FerretDbStorage,
  port: number,
  cwd: string,
  opts: OutputOptions = {},
): Managed {
  return startProcess('ferretdb', bin, ferretDbArgs(storage, port), {}, cwd, opts);
}

/**
 * The liveness check of a FerretDB (or any MongoDB) at `url`: a real write and read of a
 * document in the collection `fieldhouse_liveness` of `database` (the stack's polls database
 * where it is known: with the SQLite handler each database has its own lock), each bounded by
 * the driver's socket time limit. A ping is not
 * enough: while SQLite's lock wedged FerretDB, `ping` still answered and every data operation
 * hung (issue 31). The client is made once and reconnects by itself across restarts.
 */
export function mongoLiveness(
  url: string,
  timeoutMs = 2_000,
  database = 'fieldhouse_liveness',
): LivenessCheck {
  let client: MongoClient | undefined;
  return {
    what: 'a write and a read with a deadline',
    timeoutMs,
    intervalMs: 1_000,
    unresponsiveAfterMs: 10_000,
    close: async () => {
      await client?.close();
      client = undefined;
    },
    probe: async () => {
      client ??= new MongoClient(url, {
        serverSelectionTimeoutMS: timeoutMs,
        // A connection that brings no answer within the limit is closed (the driver's
        // per-operation timeoutMS has no effect from version 7 on).
        socketTimeoutMS: timeoutMs,
        connectTimeoutMS: timeoutMs,
        maxPoolSize: 1,
      });
      const probes = client.db(database).collection<{ _id: string; at: Date }>('fieldhouse_liveness');
      await probes.updateOne({ _id: 'probe' }, { $set: { at: new Date() } }, { upsert: true });
      await probes.findOne({ _id: 'probe' });
    },
  };
}
