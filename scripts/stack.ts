import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provideBackingServices } from './lib/backing.ts';
import { ensureSigningKey } from './lib/keys.ts';
import { freePort, isListening } from './lib/net.ts';
import { runNode, startNode, stopAll, Supervisor } from './lib/processes.ts';

/**
 * `npm start`: the whole stack on this machine. Backing services come from their variables or
 * the standard local ports (lib/backing.ts); MongoDB is FerretDB unless MONGO_URL is set. It
 * generates the gateway's signing key on first start (.local/keys), runs every migration,
 * starts the SMTP sink, the three services, their workers and the gateway, prints where things
 * are, and stops everything cleanly on Ctrl-C. A child that exits is restarted with backoff
 * (0.5 s doubling to 30 s, reset after 30 s up) and the restart is logged; the rest keeps
 * running (docs/reliability.md, "Operations").
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

const { started: backing } = await provideBackingServices(root, {
  ferretDataDir: join(local, 'ferretdb'),
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

const shared = {
  NODE_ENV: process.env.NODE_ENV ?? 'development',
  // Every port on loopback: clients reach the stack through the gateway on this machine only.
  HOST: '127.0.0.1',
  METRICS_HOST: '127.0.0.1',
  AMQP_URL: process.env.AMQP_URL!,
  REDIS_URL: process.env.REDIS_URL!,
  GATEWAY_JWKS_URL: `http://127.0.0.1:${ports.gateway}/.well-known/jwks.json`,
  SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
};
const env = {
  gateway: {
    ...shared,
    PORT: String(ports.gateway),
    METRICS_PORT: String(metricsPorts.gateway),
    DATABASE_URL: database('fieldhouse_identity'),
    INTERNAL_JWT_PRIVATE_KEY_FILE: key.path,
    COLLECTION_URL: `http://127.0.0.1:${ports.collection}`,
    POLLS_URL: `http://127.0.0.1:${ports.polls}`,
    EVENTS_URL: `http://127.0.0.1:${ports.events}`,
  },
  collection: {
    ...shared,
    PORT: String(ports.collection),
    METRICS_PORT: String(metricsPorts.collection),
    DATABASE_URL: database('fieldhouse_collection'),
  },
  polls: {
    ...shared,
    PORT: String(ports.polls),
    METRICS_PORT: String(metricsPorts.polls),
    MONGO_URL: process.env.MONGO_URL!,
    MONGO_DB: 'fieldhouse_polls',
  },
  events: {
    ...shared,
    PORT: String(ports.events),
    METRICS_PORT: String(metricsPorts.events),
    DATABASE_URL: database('fieldhouse_events'),
  },
};

const running: Supervisor[] = [];
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the stack...');
  // Every supervised child at once; a stopped supervisor restarts nothing.
  await Promise.all([...running].reverse().map((s) => s.stop()));
  await stopAll(backing.map((child) => ({ child })));
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await Promise.all([
    runNode('migrate:gw', join(root, 'gateway/src/migrate.ts'), env.gateway, root),
    runNode('migrate:coll', join(root, 'services/collection/src/migrate.ts'), env.collection, root),
    runNode('migrate:poll', join(root, 'services/polls/src/migrate.ts'), env.polls, root),
    runNode('migrate:evt', join(root, 'services/events/src/migrate.ts'), env.events, root),
  ]);
  /** Starts `script` under a supervisor that restarts it with backoff when it exits. */
  const supervise = (name: string, script: string, vars: Record<string, string>) =>
    new Supervisor(name, () => startNode(name, join(root, script), vars, root));
  running.push(
    supervise('smtp-sink', 'tools/smtp-sink/src/main.ts', {
      SMTP_SINK_PORT: String(ports.smtp),
      SMTP_SINK_HTTP_PORT: String(ports.mailApi),
    }),
    supervise('collection', 'services/collection/src/main.ts', env.collection),
    supervise('collection-worker', 'services/collection/src/workers/main.ts', env.collection),
    supervise('polls', 'services/polls/src/main.ts', env.polls),
    supervise('polls-worker', 'services/polls/src/workers/main.ts', env.polls),
    supervise('events', 'services/events/src/main.ts', env.events),
    supervise('events-worker', 'services/events/src/workers/main.ts', env.events),
    supervise('gateway', 'gateway/src/main.ts', env.gateway),
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
