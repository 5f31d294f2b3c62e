import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { waitForPort } from './net.ts';

/** The S3-compatible server the tests use (docs/collection.md, "Object storage"): Versity's gateway. */
const VERSITYGW_VERSION = 'v1.8.0';

/** The root credentials of the test server (loopback only, a throw-away folder). */
export const TEST_S3_CREDENTIALS = {
  accessKeyId: 'fieldhouse-test',
  secretAccessKey: 'fieldhouse-test-secret',
};

/**
 * Path of the versitygw binary in `<root>/.tools/bin`, building it on first use from the module
 * pinned in `tools/versitygw` (go.mod and go.sum), as FerretDB is: a real S3 server (its POSIX
 * backend keeps objects as files), never a mock.
 */
export function ensureVersityGw(root: string): string {
  const bin = join(root, '.tools', 'bin', `versitygw-${VERSITYGW_VERSION}`);
  if (existsSync(bin)) return bin;
  if (spawnSync('go', ['version']).status !== 0)
    throw new Error('An S3 server is needed: set S3_URL, or install Go so versitygw can be built.');
  const build = join(root, '.tools', 'versitygw-build');
  mkdirSync(build, { recursive: true });
  for (const f of ['go.mod', 'go.sum', 'tools.go'])
    copyFileSync(join(root, 'tools', 'versitygw', f), join(build, f));
  console.log(`building versitygw ${VERSITYGW_VERSION} into ${bin} (first run only, a few minutes)...`);
  // Built beside its final name, then renamed: several test runs starting at once on a fresh
  // machine each build, and none runs a half-written binary (as for FerretDB).
  const r = spawnSync(
    'go',
    ['build', '-o', `${bin}.${process.pid}`, 'github.com/versity/versitygw/cmd/versitygw'],
    {
      cwd: build,
      stdio: 'inherit',
      env: { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
    },
  );
  if (r.status !== 0) throw new Error('building versitygw failed');
  renameSync(`${bin}.${process.pid}`, bin);
  return bin;
}

/**
 * Starts versitygw on loopback with its POSIX backend in `dataDir` (object metadata in a sidecar
 * folder, so no extended attributes are needed) and the test credentials; resolves once it
 * accepts connections. Buckets are folders of `dataDir`.
 */
export async function startVersityGw(bin: string, dataDir: string, port: number): Promise<ChildProcess> {
  const objects = join(dataDir, 'objects');
  const sidecar = join(dataDir, 'meta');
  mkdirSync(objects, { recursive: true });
  mkdirSync(sidecar, { recursive: true });
  const child = spawn(bin, ['--port', `127.0.0.1:${port}`, 'posix', '--sidecar', sidecar, objects], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ROOT_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
      ROOT_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
    },
  });
  await waitForPort(port, 20_000);
  return child;
}
