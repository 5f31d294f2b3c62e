import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The console workspace. */
const CONSOLE = join(import.meta.dirname, '..');
/**
 * Where Vite writes the console (served by the gateway as CONSOLE_DIR): `console/dist`, or
 * `CONSOLE_BUILD_DIR` when set (so test runs of people working side by side in one checkout
 * do not build over each other).
 */
export const CONSOLE_DIST = process.env.CONSOLE_BUILD_DIR || join(CONSOLE, 'dist');
/** The hash of the inputs `dist` was built from (a dot path: never served). */
const STAMP = join(CONSOLE_DIST, '.vite', 'inputs.sha256');
/** What the build reads besides node_modules. */
const INPUTS = [
  'src',
  'public',
  'scripts',
  'index.html',
  'vite.config.ts',
  'postcss.config.js',
  'package.json',
];

function* filesUnder(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) return yield path;
  for (const entry of readdirSync(path).sort()) yield* filesUnder(join(path, entry));
}

/** SHA-256 over the console's sources and the root lockfile (names and contents). */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of [
    ...INPUTS.flatMap((p) => [...filesUnder(join(CONSOLE, p))]),
    join(CONSOLE, '..', 'package-lock.json'),
  ]) {
    hash.update(relative(CONSOLE, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Builds the console with Vite unless `console/dist` was built from exactly the current sources
 * (a hash of them is kept in `dist/.vite/inputs.sha256`). Returns the `dist` directory for the
 * gateway's CONSOLE_DIR. Used by `npm start` and the browser tests. Rejects when the build
 * fails (including the voting page's size budget), with Vite's output on stderr.
 */
export async function ensureConsoleBuilt(log: (line: string) => void = console.log): Promise<string> {
  const hash = inputsHash();
  if (
    existsSync(join(CONSOLE_DIST, 'index.html')) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8') === hash
  )
    return CONSOLE_DIST;
  log('building the console (console/dist is missing or stale)...');
  const vite = join(CONSOLE, '..', 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [vite, 'build', '--logLevel', 'warn', '--outDir', CONSOLE_DIST, '--emptyOutDir'],
      {
        cwd: CONSOLE,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the console build failed (exit ${code})`)),
    );
  });
  writeFileSync(STAMP, hash);
  return CONSOLE_DIST;
}
