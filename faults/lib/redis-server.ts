import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { waitForPort } from '../../scripts/lib/net.ts';

/**
 * A `redis-server` of the suite's own on a loopback port, without persistence, so the suite can
 * take it away (`SHUTDOWN NOSAVE`) and bring it back empty without touching the shared Redis.
 */
export class OwnRedis {
  private child: ChildProcess | undefined;
  readonly port: number;
  private readonly dir: string;

  constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Whether the server process runs. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the server (empty) and resolves once it accepts connections. */
  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--maxclients',
        '20000',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    // A missing binary or a server that dies at once fails here, not after the port wait.
    const child = this.child;
    await Promise.race([
      waitForPort(this.port, 10_000),
      new Promise<never>((_, reject) => {
        child.once('error', reject);
        child.once('exit', (code) =>
          reject(new Error(`redis-server exited with code ${String(code)} at start`)),
        );
      }),
    ]);
  }

  /** Sends `SHUTDOWN NOSAVE` (every key is lost) and resolves once the process has exited. */
  async shutdownNoSave(): Promise<void> {
    const child = this.child;
    await new Promise<void>((resolve) => {
      const socket = createConnection({ port: this.port, host: '127.0.0.1' }, () =>
        socket.write('*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n'),
      );
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    if (child && child.exitCode === null && child.signalCode === null)
      await new Promise((resolve) => child.once('exit', resolve));
    this.child = undefined;
  }

  /** Stops the server if it runs (SIGKILL: nothing to keep). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
