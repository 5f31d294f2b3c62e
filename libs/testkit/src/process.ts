import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo } from 'node:net';

/** A Node process started by a test, with its output kept for failure messages. */
export interface TestProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Runs `node --conditions=source <script>` with `env` added to this process's environment (the
 * real entry point of a service, as `npm start` runs it).
 */
export function startNodeProcess(script: string, env: Record<string, string>): TestProcess {
  const child = spawn(process.execPath, ['--conditions=source', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    stop: async (graceMs = 5_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether `host:port` accepts a TCP connection now. */
export function acceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    socket.setTimeout(1_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Resolves when `port` on loopback accepts connections; rejects with the process's output when
 * it exits first or `timeoutMs` passes.
 */
export async function waitForListening(proc: TestProcess, port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await acceptsConnections(port))) {
    if (proc.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nothing listens on port ${port}; process output:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A TCP port free on loopback right now. */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
