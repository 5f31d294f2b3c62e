import { join } from 'node:path';

/** The ports of a local stack's processes. */
export interface StackPorts {
  gateway: number;
  collection: number;
  polls: number;
  events: number;
  /** SMTP sink: SMTP and its HTTP API (`GET /messages`). */
  smtp: number;
  mailApi: number;
}

/** Where a local stack keeps its data. */
export interface StackBacking {
  /** PostgreSQL database URLs of the gateway (identity), collection and events. */
  databases: { identity: string; collection: string; events: string };
  mongoUrl: string;
  mongoDb: string;
  redisUrl: string;
  amqpUrl: string;
  /** The gateway's signing key (PKCS#8 PEM file). */
  keyFile: string;
}

/** One process of the stack: `node --conditions=source <script>` with `env`. */
export interface ProcessSpec {
  name: string;
  script: string;
  env: Record<string, string>;
  /**
   * Its liveness URL (`GET` answers 200 while the process does its job; docs/reliability.md,
   * "Liveness"), when it serves one: the API port's `/healthz`, a worker's `HEALTH_PORT`.
   */
  healthUrl?: string;
}

/** The workers of the stack (no API port: a `HEALTH_PORT` of their own serves `/healthz`). */
export type StackWorkerName = 'collection-worker' | 'polls-worker' | 'events-worker';

/** The names of the long-running processes (in start order: smtp-sink, the services each before its worker, the gateway). */
export type StackProcessName =
  | 'smtp-sink'
  | 'collection'
  | 'collection-worker'
  | 'polls'
  | 'polls-worker'
  | 'events'
  | 'events-worker'
  | 'gateway';

/**
 * The processes of a whole local stack (`npm start`, the fault suite): the four migrations to
 * run first, then the SMTP sink, each service with its worker and the gateway, each with its
 * environment. `extraEnv` is added to every service, worker and migration (LOG_LEVEL, HOST...);
 * `envOf` to one process by name.
 */
export function stackProcesses(
  root: string,
  ports: StackPorts,
  backing: StackBacking,
  opts: {
    nodeEnv?: string;
    /** Internal `/metrics` ports of the gateway and the services. */
    metricsPorts: Record<'gateway' | 'collection' | 'polls' | 'events', number>;
    extraEnv?: Record<string, string>;
    envOf?: Partial<Record<StackProcessName, Record<string, string>>>;
    /** Liveness ports of the workers (`HEALTH_PORT`); without them workers serve none. */
    workerHealthPorts?: Record<StackWorkerName, number>;
  },
): { migrations: ProcessSpec[]; processes: ProcessSpec[] } {
  const shared = {
    NODE_ENV: opts.nodeEnv ?? 'development',
    // Every port on loopback: clients reach the stack through the gateway on this machine only.
    HOST: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    AMQP_URL: backing.amqpUrl,
    REDIS_URL: backing.redisUrl,
    GATEWAY_JWKS_URL: `http://127.0.0.1:${ports.gateway}/.well-known/jwks.json`,
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    // Webhook receivers on this machine (plain http on loopback) are allowed locally only (docs/webhooks.md).
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    ...opts.extraEnv,
  };
  const env = {
    gateway: {
      ...shared,
      PORT: String(ports.gateway),
      METRICS_PORT: String(opts.metricsPorts.gateway),
      DATABASE_URL: backing.databases.identity,
      INTERNAL_JWT_PRIVATE_KEY_FILE: backing.keyFile,
      COLLECTION_URL: `http://127.0.0.1:${ports.collection}`,
      POLLS_URL: `http://127.0.0.1:${ports.polls}`,
      EVENTS_URL: `http://127.0.0.1:${ports.events}`,
      // The console's address: the links in account e-mails (password reset, verification) point there.
      PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
    },
    collection: {
      ...shared,
      PORT: String(ports.collection),
      METRICS_PORT: String(opts.metricsPorts.collection),
      DATABASE_URL: backing.databases.collection,
    },
    polls: {
      ...shared,
      PORT: String(ports.polls),
      METRICS_PORT: String(opts.metricsPorts.polls),
      MONGO_URL: backing.mongoUrl,
      MONGO_DB: backing.mongoDb,
    },
    events: {
      ...shared,
      PORT: String(ports.events),
      METRICS_PORT: String(opts.metricsPorts.events),
      DATABASE_URL: backing.databases.events,
    },
  };
  const loopback = (port: number | undefined, path: string) =>
    port === undefined ? undefined : `http://127.0.0.1:${port}${path}`;
  const spec = (name: StackProcessName, script: string, base: Record<string, string>): ProcessSpec => {
    const healthPort = opts.workerHealthPorts?.[name as StackWorkerName];
    const env: Record<string, string> = {
      ...base,
      ...(healthPort === undefined ? {} : { HEALTH_PORT: String(healthPort) }),
    };
    const healthUrl =
      name === 'smtp-sink'
        ? loopback(ports.mailApi, '/healthz')
        : name.endsWith('-worker')
          ? loopback(healthPort, '/healthz')
          : loopback(Number(env.PORT), '/healthz');
    return {
      name,
      script: join(root, script),
      env: { ...env, ...opts.envOf?.[name] },
      ...(healthUrl ? { healthUrl } : {}),
    };
  };
  return {
    migrations: [
      { name: 'migrate:gw', script: join(root, 'gateway/src/migrate.ts'), env: env.gateway },
      { name: 'migrate:coll', script: join(root, 'services/collection/src/migrate.ts'), env: env.collection },
      { name: 'migrate:poll', script: join(root, 'services/polls/src/migrate.ts'), env: env.polls },
      { name: 'migrate:evt', script: join(root, 'services/events/src/migrate.ts'), env: env.events },
    ],
    processes: [
      spec('smtp-sink', 'tools/smtp-sink/src/main.ts', {
        SMTP_SINK_PORT: String(ports.smtp),
        SMTP_SINK_HTTP_PORT: String(ports.mailApi),
      }),
      spec('collection', 'services/collection/src/main.ts', env.collection),
      spec('collection-worker', 'services/collection/src/workers/main.ts', env.collection),
      spec('polls', 'services/polls/src/main.ts', env.polls),
      spec('polls-worker', 'services/polls/src/workers/main.ts', env.polls),
      spec('events', 'services/events/src/main.ts', env.events),
      spec('events-worker', 'services/events/src/workers/main.ts', env.events),
      spec('gateway', 'gateway/src/main.ts', env.gateway),
    ],
  };
}
