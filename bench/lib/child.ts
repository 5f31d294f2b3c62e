import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { freePort } from '../../scripts/lib/net.ts';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Linux's USER_HZ, the unit of the CPU times in /proc/<pid>/stat (100 on every Linux port). */
const CLOCK_TICKS = 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** User + system CPU time of one process from `/proc/<pid>/stat`, in ms, and its parent pid. */
function statOf(pid: number | string): { cpuMs: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS,
      ppid: Number(fields[1]),
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system, milliseconds) process `pid` has used so far, from
 * `/proc/<pid>/stat`, with its living descendants when `tree` (PostgreSQL works in one child
 * process per connection); undefined where there is no /proc (not Linux) or the process is gone.
 */
export function processCpuMs(pid: number, tree = false): number | undefined {
  const own = statOf(pid);
  if (!own || !tree) return own?.cpuMs;
  const children = new Map<number, Array<{ pid: number; cpuMs: number }>>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = statOf(d);
    if (!st) continue;
    const list = children.get(st.ppid) ?? [];
    list.push({ pid: Number(d), cpuMs: st.cpuMs });
    children.set(st.ppid, list);
  }
  let total = own.cpuMs;
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.pop()!) ?? []) {
      total += c.cpuMs;
      queue.push(c.pid);
    }
  }
  return total;
}

/** The pid of the process listening on a loopback TCP port, or undefined (Linux /proc only). */
export function pidListeningOn(port: number): number | undefined {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!);
      }
    }
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        try {
          const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
          if (m && inodes.has(m[1]!)) return Number(pid);
        } catch {
          /* the fd closed meanwhile */
        }
      }
    }
  } catch {
    /* no /proc */
  }
  return undefined;
}

/**
 * CPU use of several processes over a stretch of time: `start()` reads their CPU times,
 * `perRequest(n)` gives each one's CPU time per request in µs since then (NaN when unknown).
 * `self` is this process (the load generator).
 */
export function cpuMeter(pids: Record<string, number | undefined>) {
  const read = () => {
    const out: Record<string, number | undefined> = {};
    for (const [name, pid] of Object.entries(pids))
      out[name] = pid === undefined ? undefined : processCpuMs(pid, true);
    const own = process.cpuUsage();
    out.self = (own.user + own.system) / 1000;
    return out;
  };
  let before = read();
  return {
    start: () => {
      before = read();
    },
    perRequest: (requests: number): Record<string, number> => {
      const after = read();
      return Object.fromEntries(
        Object.keys(after).map((k) => {
          const a = after[k];
          const b = before[k];
          return [k, a === undefined || b === undefined || !requests ? NaN : ((a - b) * 1000) / requests];
        }),
      );
    },
  };
}

/**
 * Node options that make a child write a V8 CPU profile named `name` into BENCH_CPU_PROF when
 * it stops (none when the variable is unset).
 */
export const cpuProfileArgs = (name: string): string[] =>
  process.env.BENCH_CPU_PROF
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`,
        `--cpu-prof-name=${name}.cpuprofile`,
      ]
    : [];

/** A child Node process running a TypeScript entry point, with the tail of its output kept. */
export class Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;
  private output = '';
  exitCode: number | null | undefined = undefined;

  constructor(name: string, entry: string, env: Record<string, string>, nodeArgs: string[] = []) {
    this.name = name;
    // A minimal environment: nothing from the caller's shell (DATABASE_URL, PORT, key files...)
    // may leak into the child's configuration.
    const base: Record<string, string> = {};
    for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) if (process.env[k]) base[k] = process.env[k]!;
    this.proc = spawn(process.execPath, [...nodeArgs, '--conditions=source', join(ROOT, entry)], {
      cwd: ROOT,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-8_000);
    };
    this.proc.stdout!.on('data', keep);
    this.proc.stderr!.on('data', keep);
    this.exited = new Promise((done) => {
      this.proc.once('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        done(code);
      });
      this.proc.once('error', (err) => {
        this.output += `\nspawn failed: ${err.message}`;
        this.exitCode = -1;
        done(-1);
      });
    });
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  tail(): string {
    return this.output.trim() ? this.output.trim().split('\n').slice(-30).join('\n') : '(no output)';
  }

  /** Resolves when the process exited with code 0; rejects with its output otherwise. */
  async succeeded(): Promise<void> {
    const code = await this.exited;
    if (code !== 0) throw new Error(`${this.name} exited with code ${String(code)}:\n${this.tail()}`);
  }

  /** SIGTERM (graceful stop), then SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (this.running) {
        console.error(`${this.name} did not stop within ${graceMs} ms: killing it`);
        this.proc.kill('SIGKILL');
      }
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Polls `url` until it answers 200 (resolves with its JSON); rejects if `child` exits or after `timeoutMs`. */
export async function waitReady(
  child: Child,
  url: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!child.running) throw new Error(`${child.name} exited during start-up:\n${child.tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status === 200) return body;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = String(err);
    }
    await sleep(250);
  }
  throw new Error(
    `${child.name} not ready at ${url} after ${timeoutMs} ms (last: ${last}):\n${child.tail()}`,
  );
}

/**
 * The environment every bench gives its server children: production mode, quiet logs, loopback,
 * metrics on any free port (several children, or a local stack, may run at once).
 */
export const SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'error',
  HOST: '127.0.0.1',
  METRICS_PORT: '0',
  SHUTDOWN_TIMEOUT_MS: '3000',
} as const;

export interface BenchGatewayOptions {
  port: number;
  /** The gateway's identity database (migrated). */
  databaseUrl: string;
  redisUrl: string;
  amqpUrl: string;
  /** RabbitMQ prefix of this run; also, with `:`, the prefix of its Redis keys. */
  prefix: string;
  /** The service(s) under test: `COLLECTION_URL`, `POLLS_URL`, `EVENTS_URL`. */
  upstreams: Partial<Record<'COLLECTION_URL' | 'POLLS_URL' | 'EVENTS_URL', string>>;
  privateKeyPem: string;
  issuer?: string;
  /** Name of its CPU profile under BENCH_CPU_PROF. */
  profile?: string;
}

/**
 * The gateway as a bench child: the run's own Redis key prefix (its rate-limit counters never
 * meet a local stack's, and expire by themselves two windows later), and limits so high that
 * the limiters run on every request but never refuse one.
 */
export function gatewayChild(o: BenchGatewayOptions): Child {
  return new Child(
    'gateway',
    'gateway/src/main.ts',
    {
      ...SERVER_ENV,
      PORT: String(o.port),
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      REDIS_PREFIX: `${o.prefix.replace(/\.$/, '')}:`,
      AMQP_URL: o.amqpUrl,
      AMQP_PREFIX: o.prefix,
      ...o.upstreams,
      INTERNAL_JWT_PRIVATE_KEY: o.privateKeyPem,
      ...(o.issuer ? { INTERNAL_JWT_ISSUER: o.issuer } : {}),
      RATE_LIMIT_IP: '100000000',
      RATE_LIMIT_USER: '100000000',
    },
    cpuProfileArgs(o.profile ?? 'gateway'),
  );
}

/** Registers a user through the gateway; resolves with its token and user. */
export async function registerUser(
  gatewayUrl: string,
  user: { name: string; email: string; password: string },
): Promise<{ token: string; user: { id: number; name: string; email: string } }> {
  const res = await fetch(`${gatewayUrl}/api/v1/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(user),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as { token: string; user: { id: number; name: string; email: string } };
}

/** Prints CPU µs per request of each process, one row per run (from {@link cpuMeter}). */
export function printCpuTable(rows: Array<[string, Record<string, number>]>): void {
  const names = Object.keys(rows[0]?.[1] ?? {});
  console.log('CPU per request (µs, from /proc; `self` is the load generator):');
  console.log(`${''.padEnd(24)} ${names.map((n) => n.padStart(8)).join(' ')} ${'sum'.padStart(8)}`);
  for (const [label, cpu] of rows) {
    const values = names.map((n) => cpu[n] ?? NaN);
    const sum = values.filter(Number.isFinite).reduce((a, b) => a + b, 0);
    console.log(
      `${label.padEnd(24)} ${values.map((v) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a').padStart(8)).join(' ')} ${sum.toFixed(0).padStart(8)}`,
    );
  }
}
