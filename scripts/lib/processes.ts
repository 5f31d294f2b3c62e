import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const COLOURS = [36, 35, 33, 32, 34, 31, 96, 95];

/** How a child process ended: its exit code, or the signal that killed it (the other is null). */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process of the local stack, its output prefixed with its name. */
export interface Managed {
  name: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<ExitStatus>;
}

let colour = 0;

/** Where a child's output lines go instead of the console (a log file, say). */
export interface OutputOptions {
  output?: (name: string, line: string) => void;
}

/**
 * Starts `node --conditions=source <script>` with `env` (over this process's environment),
 * prefixing each output line with `name` on the console, or passing each line to `opts.output`.
 */
export function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  cwd: string,
  opts: OutputOptions = {},
): Managed {
  return startProcess(name, process.execPath, ['--conditions=source', script], env, cwd, opts);
}

/** Starts `command args…` as {@link startNode} starts a script (any executable: HAProxy, say). */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  opts: OutputOptions = {},
): Managed {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tag = `\x1b[${COLOURS[colour++ % COLOURS.length]}m${name.padEnd(12)}\x1b[0m|`;
  const output = opts.output ?? ((_name: string, line: string) => console.log(`${tag} ${line}`));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => output(name, line));
  }
  const exited = new Promise<ExitStatus>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    // A command that cannot be started (not installed, say) ends as a failure, not a crash.
    child.on('error', (err) => {
      output(name, `could not start ${command}: ${err.message}`);
      resolve({ code: 127, signal: null });
    });
  });
  return { name, child, exited };
}

/** Runs a script to completion; rejects when it exits non-zero. */
export async function runNode(
  name: string,
  script: string,
  env: Record<string, string>,
  cwd: string,
  opts: OutputOptions = {},
): Promise<void> {
  const { code, signal } = await startNode(name, script, env, cwd, opts).exited;
  if (code !== 0) throw new Error(`${name} exited with ${describeExit({ code, signal })}`);
}

/** `code 1` or `signal SIGKILL`. */
export const describeExit = (s: ExitStatus) => (s.signal ? `signal ${s.signal}` : `code ${s.code}`);

/** Sends SIGTERM to every process, waits up to `graceMs` for them, then SIGKILLs the rest. */
export async function stopAll(
  procs: Array<{ child: ChildProcess; exited?: Promise<unknown> }>,
  graceMs = 10_000,
) {
  const waits = procs.map((p) => {
    const exited = p.exited ?? new Promise((resolve) => p.child.once('exit', resolve));
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    return Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]).then(() => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    });
  });
  await Promise.all(waits);
}

export interface RestartPolicy {
  /** Wait before the first restart after a crash, ms (default 500). */
  initialDelayMs?: number;
  /** Longest wait between restarts, ms: the delay doubles up to it (default 30 000). */
  maxDelayMs?: number;
  /**
   * A child that ran at least this long before it exited counts as healthy: its restart waits
   * `initialDelayMs` again instead of the doubled delay (ms, default 30 000).
   */
  stableAfterMs?: number;
  /** Where restart lines go (default `console.error`). */
  log?: (line: string) => void;
}

/** One restart, as logged: which child, how it ended, and the wait before the new one. */
export interface RestartEvent {
  name: string;
  status: ExitStatus;
  /** 1 for the first restart of this child, 2 for the second... */
  attempt: number;
  delayMs: number;
}

/**
 * A child kept running as a process manager would: whenever it exits (crash, signal, or even a
 * clean exit) while not stopped, it is started again after a delay that starts at
 * `initialDelayMs` and doubles on every quick failure up to `maxDelayMs`; a child that stayed up
 * `stableAfterMs` resets the delay. Each restart is logged with the name, the exit code or
 * signal and the next delay. `stop()` ends it for good: no restart follows, a pending one is
 * cancelled, and the running child gets SIGTERM (SIGKILL after `graceMs`).
 */
export class Supervisor {
  readonly name: string;
  /** Every restart so far, in order (tests and the log read it). */
  readonly restarts: RestartEvent[] = [];
  private current: Managed;
  private startedAt = Date.now();
  private nextDelayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly policy: Required<RestartPolicy>;
  private readonly start: () => Managed;

  /** Starts the child now with `start()` (called again for each restart). */
  constructor(name: string, start: () => Managed, policy: RestartPolicy = {}) {
    this.name = name;
    this.start = start;
    this.policy = {
      initialDelayMs: policy.initialDelayMs ?? 500,
      maxDelayMs: policy.maxDelayMs ?? 30_000,
      stableAfterMs: policy.stableAfterMs ?? 30_000,
      log: policy.log ?? ((line) => console.error(line)),
    };
    this.nextDelayMs = this.policy.initialDelayMs;
    this.current = this.launch();
  }

  /** The child running now (or the one that exited last, while a restart is pending). */
  get process(): Managed {
    return this.current;
  }

  /** Whether `stop()` was called. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Stops for good: cancels a pending restart, stops the running child and waits for it. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await stopAll([this.current], graceMs);
  }

  private launch(): Managed {
    const managed = this.start();
    this.startedAt = Date.now();
    void managed.exited.then((status) => this.onExit(status));
    return managed;
  }

  private onExit(status: ExitStatus): void {
    if (this.stopped) return;
    const uptime = Date.now() - this.startedAt;
    if (uptime >= this.policy.stableAfterMs) this.nextDelayMs = this.policy.initialDelayMs;
    const delayMs = this.nextDelayMs;
    this.nextDelayMs = Math.min(delayMs * 2, this.policy.maxDelayMs);
    const event = { name: this.name, status, attempt: this.restarts.length + 1, delayMs };
    this.restarts.push(event);
    this.policy.log(
      `${this.name} exited with ${describeExit(status)} after ${(uptime / 1000).toFixed(1)} s; ` +
        `restart #${event.attempt} in ${delayMs} ms`,
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.current = this.launch();
    }, delayMs);
  }
}
