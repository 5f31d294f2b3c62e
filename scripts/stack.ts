import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provideBackingServices } from './lib/backing.ts';
import { ensureSigningKey } from './lib/keys.ts';
import { freePort, isListening } from './lib/net.ts';
import { httpLiveness, runNode, startNode, Supervisor } from './lib/processes.ts';
import { stackProcesses } from './lib/stack-def.ts';
import { ensureConsoleBuilt } from '@fieldhouse/console/ensure-built';

/**
 * `npm start`: the whole stack on this machine. Backing services come from their variables or
 * the standard local ports (lib/backing.ts); MongoDB is FerretDB unless MONGO_URL is set. It
 * generates the gateway's signing key on first start (.local/keys), runs every migration,
 * starts the SMTP sink, the three services, their workers and the gateway, prints where things
 * are, and stops everything cleanly on Ctrl-C. A child that exits, or that runs but fails its
 * liveness check for 10 s (its `/healthz`; for FerretDB a write and a read with a deadline), is
 * restarted with backoff (0.5 s doubling to 30 s, reset after 30 s up) and the restart is
 * logged with its reason; the rest keeps running (docs/reliability.md, "Liveness").
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = join(root, '.local');

const ports = {
  gateway: Number(process.env.GATEWAY_PORT ?? 8080),
  collection: Number(process.env.COLLECTION_PORT ?? 8081),
  polls: Number(process.env.POLLS_PORT ?? 8082),
  events: Number(process.env.EVENTS_PORT ?? 8083),
  smtp: Number(process.env.SMTP_SINK_PORT ?? 1025),
  mailApi: Number(process.env.SMTP_SINK_HTTP_PORT ?? 8025),
};
/** Internal `/metrics` ports (loopback only), 1000 above each API port unless set. */
const metricsPorts = {
  gateway: Number(process.env.GATEWAY_METRICS_PORT ?? ports.gateway + 1000),
  collection: Number(process.env.COLLECTION_METRICS_PORT ?? ports.collection + 1000),
  polls: Number(process.env.POLLS_METRICS_PORT ?? ports.polls + 1000),
  events: Number(process.env.EVENTS_METRICS_PORT ?? ports.events + 1000),
};

// FerretDB (when MONGO_URL is unset) keeps its data in the database fieldhouse_ferretdb of the
// same PostgreSQL (FERRETDB_HANDLER=sqlite: in .local/ferretdb), supervised with a liveness check.
const backing = await provideBackingServices(root, {
  ferretDataDir: join(local, 'ferretdb'),
  ferretDatabase: 'fieldhouse_ferretdb',
  ferretLivenessDb: 'fieldhouse_polls',
  ferretPort: (await isListening(27017)) ? await freePort() : 27017,
});
for (const v of ['POSTGRES_URL', 'REDIS_URL', 'AMQP_URL', 'MONGO_URL']) {
  if (!process.env[v]) {
    console.error(`${v} is not set and nothing listens on its standard local port: start it or set ${v}.`);
    process.exit(1);
  }
}

/** The PostgreSQL URL of one owner's database on the configured server. */
const database = (name: string) => {
  const url = new URL(process.env.POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};

const key = ensureSigningKey(join(local, 'keys', 'internal-jwt.pem'));
if (key.created) console.log(`generated the gateway signing key in ${key.path}`);

/**
 * The workers' liveness ports (loopback): each service's API port + 1010 unless set; a default
 * port something else already holds (9092 is Kafka's) is replaced by a free one.
 */
const healthPort = async (variable: string, fallback: number) =>
  process.env[variable]
    ? Number(process.env[variable])
    : (await isListening(fallback))
      ? freePort()
      : fallback;
const workerHealthPorts = {
  'collection-worker': await healthPort('COLLECTION_WORKER_HEALTH_PORT', ports.collection + 1010),
  'polls-worker': await healthPort('POLLS_WORKER_HEALTH_PORT', ports.polls + 1010),
  'events-worker': await healthPort('EVENTS_WORKER_HEALTH_PORT', ports.events + 1010),
};

// The web console, served by the gateway at `/` (docs/console.md): built once when missing or stale.
const consoleDir = await ensureConsoleBuilt();

const { migrations, processes } = stackProcesses(
  root,
  ports,
  {
    databases: {
      identity: database('fieldhouse_identity'),
      collection: database('fieldhouse_collection'),
      events: database('fieldhouse_events'),
    },
    mongoUrl: process.env.MONGO_URL!,
    mongoDb: 'fieldhouse_polls',
    redisUrl: process.env.REDIS_URL!,
    amqpUrl: process.env.AMQP_URL!,
    keyFile: key.path,
  },
  {
    nodeEnv: process.env.NODE_ENV ?? 'development',
    metricsPorts,
    envOf: { gateway: { CONSOLE_DIR: consoleDir } },
    workerHealthPorts,
  },
);

const running: Supervisor[] = [];
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the stack...');
  // Every supervised child at once; a stopped supervisor restarts nothing.
  await Promise.all([...running].reverse().map((s) => s.stop()));
  await backing.stop();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await Promise.all(migrations.map((m) => runNode(m.name, m.script, m.env, root)));
  // Each process under a supervisor that restarts it with backoff when it exits, or when its
  // /healthz has not answered for 10 s (a hung event loop; docs/reliability.md, "Liveness").
  running.push(
    ...processes.map(
      (p) =>
        new Supervisor(p.name, () => startNode(p.name, p.script, p.env, root), {
          ...(p.healthUrl ? { liveness: { ...httpLiveness(p.healthUrl), unresponsiveAfterMs: 10_000 } } : {}),
        }),
    ),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${ports.gateway}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the gateway did not become ready within 60 s');
    await new Promise((r) => setTimeout(r, 300));
  }
} catch (err) {
  console.error(String(err));
  await shutdown(1);
}

console.log(`
  Fieldhouse is running.
    Gateway (the only URL clients need):  http://127.0.0.1:${ports.gateway}
    Web console:                          http://127.0.0.1:${ports.gateway}/
    API documents:                        http://127.0.0.1:${ports.gateway}/docs
    E-mails sent (SMTP sink):             http://127.0.0.1:${ports.mailApi}/messages
    Metrics (internal ports):             ${Object.entries(metricsPorts)
      .map(([name, port]) => `${name} http://127.0.0.1:${port}/metrics`)
      .join(', ')}
  Create a user in another terminal:
    npm run user:create -- --email you@example.org --password 'a long password' --name 'Your Name'
  Then: curl -s -X POST http://127.0.0.1:${ports.gateway}/api/v1/login -H 'Content-Type: application/json' \\
          -d '{"email":"you@example.org","password":"a long password"}'
  Ctrl-C stops everything.
`);
