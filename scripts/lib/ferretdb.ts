import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForPort } from './net.ts';

export const FERRETDB_VERSION = 'v1.24.2';

/**
 * Path of the FerretDB binary in `<root>/.tools/bin`, building it on first use (design.md,
 * "Local machines and tests"): the module pinned in `tools/ferretdb` (go.mod and go.sum) is
 * vendored from the Go module proxy and built. The vendored tree gets the `version.txt` that
 * FerretDB's release process generates (its `go install` build panics without it).
 */
export function ensureFerretDb(root: string): string {
  const bin = join(root, '.tools', 'bin', `ferretdb-${FERRETDB_VERSION}`);
  if (existsSync(bin)) return bin;
  if (spawnSync('go', ['version']).status !== 0) {
    throw new Error(
      'MongoDB is needed: set MONGO_URL to a MongoDB server, or install Go so FerretDB can be built.',
    );
  }
  const build = join(root, '.tools', 'ferretdb-build');
  mkdirSync(build, { recursive: true });
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
    ['build', '-mod=vendor', '-o', bin, 'github.com/FerretDB/FerretDB/cmd/ferretdb'],
    {
      cwd: build,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error('building FerretDB failed');
  return bin;
}

/**
 * Starts FerretDB with the SQLite handler on loopback, telemetry off, storing in `dataDir`;
 * resolves once it accepts connections.
 */
export async function startFerretDb(bin: string, dataDir: string, port: number): Promise<ChildProcess> {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--state-dir=${dataDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--log-level=error',
      '--debug-addr=-',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  await waitForPort(port, 20_000);
  return child;
}
