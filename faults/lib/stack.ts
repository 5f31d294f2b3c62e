/**
 * The fault suite's own stack: fresh PostgreSQL databases (random names on the shared server),
 * its own `redis-server` on a free port, its own RabbitMQ vhost on the shared broker, FerretDB
 * (unless MONGO_URL is set) on a fresh data folder, the SMTP sink, then the three services,
 * their workers and the gateway as separate child processes (the same definitions as
 * `npm start`, scripts/lib/stack-def.ts), each of which can be killed and restarted alone.
 * Every child's output goes to `<logDir>/<name>.log`. Everything started is registered for
 * clean-up (lib/life.ts).
 *
 * With `replicas: n` (the replicas suite, `npm run test:replicas`) every service, worker and
 * gateway runs n times (`gateway-1`, `gateway-2`, `polls-worker-1`...) behind HAProxy
 * (lib/haproxy.ts): the clients reach the gateways through it, and the gateways reach each
 * service through it; photos and exports then go to an S3 bucket shared by the replicas.
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
import { runNode, startNode, stopAll, type Managed, type Supervisor } from '../../scripts/lib/processes.ts';
import { stackProcesses, type ProcessSpec, type StackPorts } from '../../scripts/lib/stack-def.ts';
import { sleep } from '@fieldhouse/testkit';
import { onCleanup } from './life.ts';
import { withDatabase } from '../../bench/lib/backing.ts';
import { addVhost, deleteVhost, vhostUrl } from './rabbit.ts';
import { OwnRedis } from './redis-server.ts';
import { startHaproxy, type Tier } from './haproxy.ts';
import { createBucket } from './bucket.ts';

/** The services (HTTP, with `/readyz`) and the workers (no HTTP) of the stack. */
export const SERVICES = ['gateway', 'collection', 'polls', 'events'] as const;
export const WORKERS = ['collection-worker', 'polls-worker', 'events-worker'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type WorkerName = (typeof WORKERS)[number];
/** The line each worker logs once its consumers are declared (each `src/workers/main.ts`). */
const WORKER_STARTED = /\bworkers? started\b/;

/** An exit of a child the suite did not ask for. */
export interface UnexpectedExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: Date;
}

/** How the suite's stack is laid out. */
export interface StackOptions {
  logDir: string;
  /** Replicas of each service, worker and gateway (default 1: no load balancer). */
  replicas?: number;
  /** Prefix of the databases, vhost and temporary folder (`faults`, `replicas`). */
  label?: string;
  /** Environment added to every process of a kind (`collection-worker`...), in each replica. */
  envOf?: Partial<Record<ServiceName | WorkerName, Record<string, string>>>;
}

export class FaultStack {
  readonly procs = new Map<string, Managed>();
  readonly unexpectedExits: UnexpectedExit[] = [];
  private readonly specs = new Map<string, ProcessSpec>();
  private readonly logs = new Map<string, WriteStream>();
  private readonly expected = new Set<Managed>();
  /** The API port of each HTTP process (`gateway`, or `gateway-1`... with replicas). */
  private readonly httpPorts = new Map<string, number>();
  /** The workers that have logged their start line since their last launch. */
  private readonly workersStarted = new Set<string>();

  readonly root: string;
  readonly id: string;
  /** The ports clients use: with replicas, the load balancer's frontends. */
  readonly ports: StackPorts;
  readonly redis: OwnRedis;
  readonly vhost: string;
  readonly amqpUrl: string;
  readonly mongoUrl: string;
  readonly mongoDb: string;
  readonly databases: { identity: string; collection: string; events: string };
  readonly logDir: string;
  readonly replicas: number;
  /** The gateways' signing key (PKCS#8 PEM file), to call a service directly. */
  readonly keyFile: string;
  /** HAProxy, when the stack has replicas. */
  loadBalancer: Managed | undefined;
  /** The FerretDB started for the suite under its supervisor (none when MONGO_URL was set). */
  store: Supervisor | undefined;

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
    replicas: number;
    keyFile: string;
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
    this.replicas = o.replicas;
    this.keyFile = o.keyFile;
  }

  /** `http://127.0.0.1:<port>` of the gateway (with replicas: of the load balancer). */
  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports.gateway}`;
  }

  /** `http://127.0.0.1:<port>` of the SMTP sink's API (`/messages`). */
  get mailApiUrl(): string {
    return `http://127.0.0.1:${this.ports.mailApi}`;
  }

  /** `http://127.0.0.1:<port>` of one HTTP process (`gateway-2`, `polls-1`...), bypassing the balancer. */
  urlOf(name: string): string {
    const port = this.httpPorts.get(name);
    if (port === undefined) throw new Error(`no HTTP process ${name}`);
    return `http://127.0.0.1:${port}`;
  }

  /** The names of the processes of `kind` (`polls` → `polls-1`, `polls-2` with two replicas). */
  namesOf(kind: ServiceName | WorkerName): string[] {
    if (this.replicas === 1) return [kind];
    return Array.from({ length: this.replicas }, (_, i) => `${kind}-${i + 1}`);
  }

  /** Every HTTP process (what must answer `/readyz`). */
  get httpProcesses(): string[] {
    return [...this.httpPorts.keys()];
  }

  /**
   * Creates the backing resources, migrates, starts every process and waits until each service
   * answers `/readyz`.
   */
  static async start(root: string, opts: StackOptions): Promise<FaultStack> {
    const label = opts.label ?? 'faults';
    const replicas = opts.replicas ?? 1;
    const id = randomBytes(4).toString('hex');
    const tmp = mkdtempSync(join(tmpdir(), `fh-${label}-${id}-`));
    onCleanup('remove the temporary folder', async () => rmSync(tmp, { recursive: true, force: true }));
    mkdirSync(opts.logDir, { recursive: true });

    const hadMongo = Boolean(process.env.MONGO_URL);
    const backingServices = await provideBackingServices(root, {
      ferretDataDir: join(tmp, 'ferretdb'),
      s3: replicas > 1,
      // A FerretDB killed for hanging comes back at once: the scenarios time its return.
      ferretPolicy: { initialDelayMs: 200, maxDelayMs: 2_000 },
      ferretLivenessDb: `${label}_polls_${id}`,
    });
    onCleanup('stop the backing servers started here', () => backingServices.stop());
    for (const v of ['POSTGRES_URL', 'AMQP_URL', 'MONGO_URL']) {
      if (!process.env[v]) throw new Error(`${v} is not set and nothing listens on its standard port`);
    }

    const redis = new OwnRedis(await freePort(), tmp);
    onCleanup('stop the suite’s redis-server', () => redis.stop());
    await redis.start();

    const vhost = `fh-${label}-${id}`;
    await addVhost(vhost);
    onCleanup(`delete vhost ${vhost}`, () => deleteVhost(vhost));

    const databases = {
      identity: withDatabase(process.env.POSTGRES_URL!, `${label}_identity_${id}`),
      collection: withDatabase(process.env.POSTGRES_URL!, `${label}_collection_${id}`),
      events: withDatabase(process.env.POSTGRES_URL!, `${label}_events_${id}`),
    };
    for (const url of Object.values(databases)) onCleanup('drop a database', () => dropDatabase(url));
    const mongoUrl = process.env.MONGO_URL!;
    const mongoDb = `${label}_polls_${id}`;
    if (hadMongo)
      onCleanup('drop the MongoDB database', async () => {
        const m = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
        try {
          await m.db(mongoDb).dropDatabase();
        } finally {
          await m.close();
        }
      });

    // The clients' ports: the processes' own with one replica, the balancer's with several.
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
    // Several replicas share one S3 bucket (a local folder is one machine's); one uses a folder.
    const blobEnv: Record<string, string> =
      replicas > 1 ? await createBucket(`${label}-${id}`) : { BLOB_DIR: join(tmp, 'blobs') };
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
      replicas,
      keyFile: key.path,
    });
    stack.store = backingServices.ferretdb;
    const backing = { databases, mongoUrl, mongoDb, redisUrl: redis.url, amqpUrl, keyFile: key.path };
    const lb = replicas > 1;
    const tiers: Tier[] = SERVICES.map((name) => ({ name, port: ports[name], servers: [] }));
    let migrations: ProcessSpec[] = [];
    for (let r = 1; r <= replicas; r++) {
      const own: StackPorts = lb
        ? {
            ...ports,
            gateway: await freePort(),
            collection: await freePort(),
            polls: await freePort(),
            events: await freePort(),
          }
        : ports;
      const def = stackProcesses(root, own, backing, {
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
          ...blobEnv,
          PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
          // Replicas: the services fetch the gateways' keys through the balancer too.
          ...(lb ? { GATEWAY_JWKS_URL: `http://127.0.0.1:${ports.gateway}/.well-known/jwks.json` } : {}),
        },
        envOf: {
          ...opts.envOf,
          gateway: {
            // The load comes from one address and one user: the limiters run, but never refuse.
            RATE_LIMIT_IP: '100000000',
            RATE_LIMIT_USER: '100000000',
            ...(lb
              ? {
                  COLLECTION_URL: `http://127.0.0.1:${ports.collection}`,
                  POLLS_URL: `http://127.0.0.1:${ports.polls}`,
                  EVENTS_URL: `http://127.0.0.1:${ports.events}`,
                }
              : {}),
            ...opts.envOf?.gateway,
          },
        },
      });
      if (r === 1) migrations = def.migrations;
      for (const p of def.processes) {
        if (p.name === 'smtp-sink') {
          if (r === 1) stack.specs.set(p.name, p);
          continue;
        }
        const name = lb ? `${p.name}-${r}` : p.name;
        stack.specs.set(name, { ...p, name });
        const tier = tiers.find((t) => t.name === p.name);
        if (tier) {
          stack.httpPorts.set(name, own[tier.name as ServiceName]);
          tier.servers.push({ name, port: own[tier.name as ServiceName] });
        }
      }
    }
    onCleanup('stop the stack', () => stack.stopAll());
    console.log(`stack ${id}: migrating (PostgreSQL ${label}_*_${id}, MongoDB ${mongoDb}, vhost ${vhost})`);
    await Promise.all(
      migrations.map((m) => runNode(m.name, m.script, m.env, root, { output: stack.output })),
    );
    for (const name of stack.specs.keys()) stack.launch(name);
    if (lb) stack.loadBalancer = await startHaproxy(tmp, tiers, { output: stack.output });
    await Promise.all(stack.httpProcesses.map((s) => stack.waitReady(s, 90_000)));
    if (lb) await stack.waitThroughBalancer(30_000);
    console.log(
      `stack ${id}: ready (gateway ${stack.gatewayUrl}${lb ? ` through HAProxy, ${replicas} replicas of each process` : ''}, redis ${redis.url}, logs in ${opts.logDir})`,
    );
    return stack;
  }

  /** Appends a child's output line to its log file. */
  private readonly output = (name: string, line: string) => {
    let stream = this.logs.get(name);
    if (!stream) {
      stream = createWriteStream(this.logFile(name), { flags: 'a' });
      this.logs.set(name, stream);
    }
    stream.write(`${new Date().toISOString()} ${line}\n`);
    if (WORKER_STARTED.test(line)) this.workersStarted.add(name);
  };

  /** The path of process `name`'s log file. */
  logFile(name: string): string {
    return join(this.logDir, `${name.replace(/[^a-z0-9-]/gi, '_')}.log`);
  }

  /** Starts process `name` (again); its unexpected exit is recorded. */
  private launch(name: string): Managed {
    const spec = this.specs.get(name)!;
    this.output(name, `--- starting ${name}`);
    this.workersStarted.delete(name);
    const managed = startNode(name, spec.script, spec.env, this.root, { output: this.output });
    this.procs.set(name, managed);
    managed.child.once('exit', (code, signal) => {
      this.output(name, `--- ${name} exited (code ${code}, signal ${signal})`);
      if (!this.expected.has(managed)) this.unexpectedExits.push({ name, code, signal, at: new Date() });
    });
    return managed;
  }

  /** Sends `signal` (SIGKILL by default) to process `name` and resolves once it has exited. */
  async kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.procs.get(name);
    if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
    this.expected.add(p);
    p.child.kill(signal);
    await p.exited;
  }

  /** Starts process `name` again (after {@link kill}); resolves at once (not when ready). */
  restart(name: string): void {
    const p = this.procs.get(name);
    if (p && p.child.exitCode === null && p.child.signalCode === null)
      throw new Error(`${name} is still running`);
    this.launch(name);
  }

  /** The pid of process `name`, if it runs. */
  pid(name: string): number | undefined {
    const p = this.procs.get(name);
    return p && p.child.exitCode === null && p.child.signalCode === null ? p.child.pid : undefined;
  }

  /** Resolves when HTTP process `name` answers 200 on `/readyz`; rejects after `timeoutMs`. */
  async waitReady(name: string, timeoutMs = 30_000): Promise<void> {
    await this.waitOk(`${this.urlOf(name)}/readyz`, name, timeoutMs);
  }

  /**
   * Resolves when worker process `name` has logged its start line (`… worker(s) started`, written
   * once its consumers are declared) since its last launch; rejects after `timeoutMs`.
   */
  async waitWorkerStarted(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.workersStarted.has(name)) {
      if (Date.now() > deadline)
        throw new Error(`${name} not started after ${timeoutMs} ms (see ${this.logFile(name)})`);
      await sleep(100);
    }
  }

  /**
   * Resolves when the balancer has every replica of every tier in rotation: `2 × replicas`
   * readiness checks through each frontend in a row reach every replica (round robin).
   */
  async waitThroughBalancer(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const tier of SERVICES) {
      for (;;) {
        const seen = new Set<string>();
        for (let i = 0; i < this.replicas * 2; i++) {
          const res = await fetch(`http://127.0.0.1:${this.ports[tier]}/readyz`, {
            signal: AbortSignal.timeout(2_000),
          }).catch(() => undefined);
          const by = res?.ok ? res.headers.get(`x-served-by-${tier}`) : null;
          if (by) seen.add(by);
        }
        if (seen.size === this.replicas) break;
        if (Date.now() > deadline)
          throw new Error(`the balancer reaches ${seen.size} of ${this.replicas} ${tier} replicas`);
        await sleep(250);
      }
    }
  }

  private async waitOk(url: string, name: string, timeoutMs: number): Promise<void> {
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
    await Promise.all(this.httpProcesses.map((s) => this.waitReady(s, 60_000)));
    if (this.loadBalancer) await this.waitThroughBalancer(30_000);
  }

  /** Stops every process (SIGTERM, then SIGKILL after 5 s) and closes the log files. */
  async stopAll(): Promise<void> {
    const running = [...this.procs.values()].filter(
      (p) => p.child.exitCode === null && p.child.signalCode === null,
    );
    for (const p of running) this.expected.add(p);
    await stopAll(running.reverse(), 5_000);
    if (this.loadBalancer) await stopAll([this.loadBalancer], 5_000);
    for (const s of this.logs.values()) s.end();
  }
}
