/**
 * The fault suite's own stack: fresh PostgreSQL databases (random names on the shared server),
 * its own `redis-server` on a free port, its own RabbitMQ vhost on the shared broker, FerretDB
 * (unless MONGO_URL is set) on a fresh data folder, the SMTP sink, then the three services,
 * their workers and the gateway as separate child processes (the same definitions as
 * `npm start`, scripts/lib/stack-def.ts), each of which can be killed and restarted alone.
 * Every child's output goes to `<logDir>/<name>.log`. Everything started is registered for
 * clean-up (lib/life.ts).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { dropDatabase } from '@fieldhouse/db';
import { provideBackingServices } from '../../scripts/lib/backing.ts';
import { ensureSigningKey } from '../../scripts/lib/keys.ts';
import { freePort } from '../../scripts/lib/net.ts';
import { runNode, startNode, stopAll, type Managed } from '../../scripts/lib/processes.ts';
import {
  stackProcesses,
  type ProcessSpec,
  type StackPorts,
  type StackProcessName,
} from '../../scripts/lib/stack-def.ts';
import { sleep } from '@fieldhouse/testkit';
import { onCleanup } from './life.ts';
import { withDatabase } from '../../bench/lib/backing.ts';
import { addVhost, deleteVhost, vhostUrl } from './rabbit.ts';
import { OwnRedis } from './redis-server.ts';

/** The services (HTTP, with `/readyz`) and the workers (no HTTP) of the stack. */
export const SERVICES = ['gateway', 'collection', 'polls', 'events'] as const;
export const WORKERS = ['collection-worker', 'polls-worker', 'events-worker'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type WorkerName = (typeof WORKERS)[number];

/** An exit of a child the suite did not ask for. */
export interface UnexpectedExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: Date;
}

export class FaultStack {
  readonly procs = new Map<StackProcessName, Managed>();
  readonly unexpectedExits: UnexpectedExit[] = [];
  private readonly specs = new Map<StackProcessName, ProcessSpec>();
  private readonly logs = new Map<string, WriteStream>();
  private readonly expected = new Set<Managed>();

  readonly root: string;
  readonly id: string;
  readonly ports: StackPorts;
  readonly redis: OwnRedis;
  readonly vhost: string;
  readonly amqpUrl: string;
  readonly mongoUrl: string;
  readonly mongoDb: string;
  readonly databases: { identity: string; collection: string; events: string };
  readonly logDir: string;

  private constructor(o: {
    root: string;
    id: string;
    ports: StackPorts;
    redis: OwnRedis;
    vhost: string;
    amqpUrl: string;
    mongoUrl: string;
    mongoDb: string;
    databases: { identity: string; collection: string; events: string };
    logDir: string;
  }) {
    this.root = o.root;
    this.id = o.id;
    this.ports = o.ports;
    this.redis = o.redis;
    this.vhost = o.vhost;
    this.amqpUrl = o.amqpUrl;
    this.mongoUrl = o.mongoUrl;
    this.mongoDb = o.mongoDb;
    this.databases = o.databases;
    this.logDir = o.logDir;
  }

  /** `http://127.0.0.1:<port>` of the gateway. */
  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports.gateway}`;
  }

  /** `http://127.0.0.1:<port>` of the SMTP sink's API (`/messages`). */
  get mailApiUrl(): string {
    return `http://127.0.0.1:${this.ports.mailApi}`;
  }

  /**
   * Creates the backing resources, migrates, starts every process and waits until each service
   * answers `/readyz`.
   */
  static async start(root: string, opts: { logDir: string }): Promise<FaultStack> {
    const id = randomBytes(4).toString('hex');
    const tmp = mkdtempSync(join(tmpdir(), `fh-faults-${id}-`));
    onCleanup('remove the temporary folder', async () => rmSync(tmp, { recursive: true, force: true }));
    mkdirSync(opts.logDir, { recursive: true });

    const hadMongo = Boolean(process.env.MONGO_URL);
    const { started } = await provideBackingServices(root, { ferretDataDir: join(tmp, 'ferretdb') });
    onCleanup('stop FerretDB', () =>
      stopAll(
        started.map((child) => ({ child })),
        5_000,
      ),
    );
    for (const v of ['POSTGRES_URL', 'AMQP_URL', 'MONGO_URL']) {
      if (!process.env[v]) throw new Error(`${v} is not set and nothing listens on its standard port`);
    }

    const redis = new OwnRedis(await freePort(), tmp);
    onCleanup('stop the suite’s redis-server', () => redis.stop());
    await redis.start();

    const vhost = `fh-faults-${id}`;
    await addVhost(vhost);
    onCleanup(`delete vhost ${vhost}`, () => deleteVhost(vhost));

    const databases = {
      identity: withDatabase(process.env.POSTGRES_URL!, `faults_identity_${id}`),
      collection: withDatabase(process.env.POSTGRES_URL!, `faults_collection_${id}`),
      events: withDatabase(process.env.POSTGRES_URL!, `faults_events_${id}`),
    };
    for (const url of Object.values(databases)) onCleanup('drop a database', () => dropDatabase(url));
    const mongoUrl = process.env.MONGO_URL!;
    const mongoDb = `faults_polls_${id}`;
    if (hadMongo)
      onCleanup('drop the MongoDB database', async () => {
        const m = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
        try {
          await m.db(mongoDb).dropDatabase();
        } finally {
          await m.close();
        }
      });

    const ports: StackPorts = {
      gateway: await freePort(),
      collection: await freePort(),
      polls: await freePort(),
      events: await freePort(),
      smtp: await freePort(),
      mailApi: await freePort(),
    };
    const key = ensureSigningKey(join(tmp, 'keys', 'internal-jwt.pem'));
    const amqpUrl = vhostUrl(process.env.AMQP_URL!, vhost);
    const stack = new FaultStack({
      root,
      id,
      ports,
      redis,
      vhost,
      amqpUrl,
      mongoUrl,
      mongoDb,
      databases,
      logDir: opts.logDir,
    });
    const { migrations, processes } = stackProcesses(
      root,
      ports,
      { databases, mongoUrl, mongoDb, redisUrl: redis.url, amqpUrl, keyFile: key.path },
      {
        nodeEnv: 'production',
        metricsPorts: {
          gateway: await freePort(),
          collection: await freePort(),
          polls: await freePort(),
          events: await freePort(),
        },
        extraEnv: {
          LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
          SHUTDOWN_TIMEOUT_MS: '3000',
          BLOB_DIR: join(tmp, 'blobs'),
          PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
        },
        envOf: {
          // The load comes from one address and one user: the limiters run, but never refuse.
          gateway: { RATE_LIMIT_IP: '100000000', RATE_LIMIT_USER: '100000000' },
        },
      },
    );
    onCleanup('stop the stack', () => stack.stopAll());
    console.log(`stack ${id}: migrating (PostgreSQL faults_*_${id}, MongoDB ${mongoDb}, vhost ${vhost})`);
    await Promise.all(
      migrations.map((m) => runNode(m.name, m.script, m.env, root, { output: stack.output })),
    );
    for (const p of processes) {
      stack.specs.set(p.name as StackProcessName, p);
      stack.launch(p.name as StackProcessName);
    }
    await Promise.all(SERVICES.map((s) => stack.waitReady(s, 90_000)));
    console.log(
      `stack ${id}: ready (gateway ${stack.gatewayUrl}, redis ${redis.url}, logs in ${opts.logDir})`,
    );
    return stack;
  }

  /** Appends a child's output line to its log file. */
  private readonly output = (name: string, line: string) => {
    let stream = this.logs.get(name);
    if (!stream) {
      stream = createWriteStream(join(this.logDir, `${name.replace(/[^a-z0-9-]/gi, '_')}.log`), {
        flags: 'a',
      });
      this.logs.set(name, stream);
    }
    stream.write(`${new Date().toISOString()} ${line}\n`);
  };

  /** Starts process `name` (again); its unexpected exit is recorded. */
  private launch(name: StackProcessName): Managed {
    const spec = this.specs.get(name)!;
    this.output(name, `--- starting ${name}`);
    const managed = startNode(name, spec.script, spec.env, this.root, { output: this.output });
    this.procs.set(name, managed);
    managed.child.once('exit', (code, signal) => {
      this.output(name, `--- ${name} exited (code ${code}, signal ${signal})`);
      if (!this.expected.has(managed)) this.unexpectedExits.push({ name, code, signal, at: new Date() });
    });
    return managed;
  }

  /** Sends `signal` (SIGKILL by default) to process `name` and resolves once it has exited. */
  async kill(name: StackProcessName, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.procs.get(name);
    if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
    this.expected.add(p);
    p.child.kill(signal);
    await p.exited;
  }

  /** Starts process `name` again (after {@link kill}); resolves at once (not when ready). */
  restart(name: StackProcessName): void {
    const p = this.procs.get(name);
    if (p && p.child.exitCode === null && p.child.signalCode === null)
      throw new Error(`${name} is still running`);
    this.launch(name);
  }

  /** The pid of process `name`, if it runs. */
  pid(name: StackProcessName): number | undefined {
    const p = this.procs.get(name);
    return p && p.child.exitCode === null && p.child.signalCode === null ? p.child.pid : undefined;
  }

  /** Resolves when service `name` answers 200 on `/readyz`; rejects after `timeoutMs`. */
  async waitReady(name: ServiceName, timeoutMs = 30_000): Promise<void> {
    const url = `http://127.0.0.1:${this.ports[name]}/readyz`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (Date.now() > deadline)
        throw new Error(`${name} not ready after ${timeoutMs} ms (see ${this.logDir})`);
      await sleep(100);
    }
  }

  /**
   * Starts again whatever is down (the suite's Redis, any process a failed scenario left
   * stopped or that crashed) and waits until every service is ready.
   */
  async ensureRunning(): Promise<void> {
    if (!this.redis.running) await this.redis.start();
    for (const name of this.specs.keys()) if (this.pid(name) === undefined) this.restart(name);
    await Promise.all(SERVICES.map((s) => this.waitReady(s, 60_000)));
  }

  /** Stops every process (SIGTERM, then SIGKILL after 5 s) and closes the log files. */
  async stopAll(): Promise<void> {
    const running = [...this.procs.values()].filter(
      (p) => p.child.exitCode === null && p.child.signalCode === null,
    );
    for (const p of running) this.expected.add(p);
    await stopAll(running.reverse(), 5_000);
    for (const s of this.logs.values()) s.end();
  }
}
