import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const COLOURS = [36, 35, 33, 32, 34, 31, 96, 95];

/** A child process of the local stack, its output prefixed with its name. */
export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

let colour = 0;

/**
 * Starts `node --conditions=source <script>` with `env` (over this process's environment),
 * prefixing each output line with `name` on the console, or passing each line to `opts.output`
 * instead (a log file, say).
 */
export function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  cwd: string,
  opts: { output?: (name: string, line: string) => void } = {},
): Managed {
  const child = spawn(process.execPath, ['--conditions=source', script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tag = `\x1b[${COLOURS[colour++ % COLOURS.length]}m${name.padEnd(12)}\x1b[0m|`;
  const output = opts.output ?? ((_name: string, line: string) => console.log(`${tag} ${line}`));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => output(name, line));
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, child, exited };
}

/** Runs a script to completion; rejects when it exits non-zero. */
export async function runNode(
  name: string,
  script: string,
  env: Record<string, string>,
  cwd: string,
  opts: { output?: (name: string, line: string) => void } = {},
): Promise<void> {
  const code = await startNode(name, script, env, cwd, opts).exited;
  if (code !== 0) throw new Error(`${name} exited with code ${code}`);
}

/** Sends SIGTERM to every process, waits up to `graceMs` for them, then SIGKILLs the rest. */
export async function stopAll(
  procs: Array<{ child: ChildProcess; exited?: Promise<unknown> }>,
  graceMs = 10_000,
) {
  const waits = procs.map((p) => {
    const exited = p.exited ?? new Promise((resolve) => p.child.once('exit', resolve));
    if (p.child.exitCode === null) p.child.kill('SIGTERM');
    return Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]).then(() => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    });
  });
  await Promise.all(waits);
}
