import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { withTimeout } from '@fieldhouse/http';

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
const describeExit = (s: ExitStatus) => (s.signal ? `signal ${s.signal}` : `code ${s.code}`);

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
  /** A check that the child does its job, not only that it runs (default none: exits only). */
  liveness?: LivenessCheck;
}

/**
 * How a supervisor tells a child that runs but no longer answers (a hung event loop, a store
 * whose data operations hang while its process lives) from a healthy one
 * (docs/reliability.md, "Liveness"). The probe runs every `intervalMs`; it fails when it
 * rejects or does not settle within `timeoutMs`. A child whose probes have failed for
 * `unresponsiveAfterMs` since the last one that passed, or that has not passed one within
 * `startupMs` of its start (a slow start is not a hang, as with Kubernetes' startupProbe), is
 * killed with SIGKILL, and restarted like a crashed one: with the backoff, and the reason logged.
 */
export interface LivenessCheck {
  /** What is checked, for the log (`GET /healthz`, `a read and a write`). */
  what: string;
  /** Resolves when the child answers; rejects (or hangs) when it does not. */
  probe: () => Promise<unknown>;
  /** Between two probes, ms (default 1,000). */
  intervalMs?: number;
  /** Longest wait for one probe, ms (default 2,000). */
  timeoutMs?: number;
  /** Failing this long (ms, default 10,000) after a probe passed gets the child killed and restarted. */
  unresponsiveAfterMs?: number;
  /** The first probe must pass within this of the child's start (ms, default 60,000). */
  startupMs?: number;
  /** Releases what the probe holds (a client), when the supervisor stops. */
  close?: () => Promise<void>;
}

/**
 * The liveness check of a process that serves `GET <url>` (a `/healthz`): any 2xx within the
 * probe's time limit passes (docs/reliability.md, "Liveness").
 */
export function httpLiveness(url: string, timeoutMs = 2_000): LivenessCheck {
  return {
    what: `GET ${new URL(url).pathname}`,
    timeoutMs,
    probe: async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`answered ${res.status}`);
    },
  };
}

/** One restart, as logged: which child, how it ended, and the wait before the new one. */
export interface RestartEvent {
  name: string;
  status: ExitStatus;
  /** Why the supervisor killed it (its liveness probe kept failing), or undefined when it exited by itself. */
  killedBecause?: string;
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
  private readonly policy: Required<Omit<RestartPolicy, 'liveness'>>;
  private readonly liveness: Required<Omit<LivenessCheck, 'close'>> | undefined;
  private readonly closeLiveness: (() => Promise<void>) | undefined;
  /** Whether a probe has passed since the running child started. */
  private passedSinceStart = false;
  private readonly start: () => Managed;
  private livenessTimer: NodeJS.Timeout | undefined;
  /** When the running child last passed its probe (or started). */
  private lastAliveAt = Date.now();
  private probing = false;
  /** Set when the supervisor killed the running child for failing its probe. */
  private killedBecause: string | undefined;

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
    this.liveness = policy.liveness && {
      intervalMs: 1_000,
      timeoutMs: 2_000,
      unresponsiveAfterMs: 10_000,
      startupMs: 60_000,
      ...policy.liveness,
    };
    this.closeLiveness = policy.liveness?.close;
    this.nextDelayMs = this.policy.initialDelayMs;
    this.current = this.launch();
    if (this.liveness) {
      this.livenessTimer = setInterval(() => void this.checkLiveness(), this.liveness.intervalMs);
      this.livenessTimer.unref();
    }
  }

  /** The child running now (or the one that exited last, while a restart is pending). */
  get process(): Managed {
    return this.current;
  }

  /** Whether the running child has passed its liveness probe since it started (false without one). */
  get answering(): boolean {
    return this.passedSinceStart;
  }

  /** Whether `stop()` was called. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Stops for good: cancels a pending restart, stops the running child and waits for it. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.livenessTimer);
    this.timer = undefined;
    await stopAll([this.current], graceMs);
    await this.closeLiveness?.().catch(() => undefined);
  }

  private launch(): Managed {
    const managed = this.start();
    this.startedAt = Date.now();
    this.lastAliveAt = this.startedAt;
    this.passedSinceStart = false;
    this.killedBecause = undefined;
    void managed.exited.then((status) => this.onExit(status));
    return managed;
  }

  /**
   * One liveness round: probes the running child (one probe at a time) and kills it once its
   * probes have failed for `unresponsiveAfterMs`; its exit then restarts it with the backoff.
   */
  private async checkLiveness(): Promise<void> {
    const check = this.liveness;
    const child = this.current.child;
    if (!check || this.probing || this.stopped || this.timer || this.killedBecause) return;
    if (child.exitCode !== null || child.signalCode !== null) return;
    this.probing = true;
    let failure: string | undefined;
    try {
      await withTimeout(check.probe(), check.timeoutMs);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    } finally {
      this.probing = false;
    }
    if (this.current.child !== child || this.stopped) return; // restarted or stopped meanwhile
    if (failure === undefined) {
      this.lastAliveAt = Date.now();
      this.passedSinceStart = true;
      return;
    }
    const failingMs = Date.now() - this.lastAliveAt;
    const limit = this.passedSinceStart ? check.unresponsiveAfterMs : check.startupMs;
    if (failingMs < limit || this.killedBecause) return;
    this.killedBecause =
      `${check.what} ${this.passedSinceStart ? 'failed' : 'never passed since the start'} for ` +
      `${(failingMs / 1000).toFixed(1)} s (last: ${failure.slice(0, 200)})`;
    this.policy.log(`${this.name} is running but unresponsive: ${this.killedBecause}; killing it (SIGKILL)`);
    child.kill('SIGKILL');
  }

  private onExit(status: ExitStatus): void {
    if (this.stopped) return;
    const uptime = Date.now() - this.startedAt;
    if (uptime >= this.policy.stableAfterMs) this.nextDelayMs = this.policy.initialDelayMs;
    const delayMs = this.nextDelayMs;
    this.nextDelayMs = Math.min(delayMs * 2, this.policy.maxDelayMs);
    const killedBecause = this.killedBecause;
    const event: RestartEvent = {
      name: this.name,
      status,
      attempt: this.restarts.length + 1,
      delayMs,
      ...(killedBecause ? { killedBecause } : {}),
    };
    this.restarts.push(event);
    this.policy.log(
      `${this.name} ${killedBecause ? `was killed as unresponsive (${describeExit(status)})` : `exited with ${describeExit(status)}`} after ${(uptime / 1000).toFixed(1)} s; ` +
        `restart #${event.attempt} in ${delayMs} ms`,
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.current = this.launch();
    }, delayMs);
  }
}
