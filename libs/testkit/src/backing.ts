import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';

/** A backing service the tests need, the variable that points at it, and how to start one in a container. */
const KINDS = {
  postgres: {
    env: 'POSTGRES_URL',
    example: 'postgres://postgres@127.0.0.1:5432/postgres',
    image: 'postgres:17-alpine',
    port: 5432,
    containerEnv: { POSTGRES_HOST_AUTH_METHOD: 'trust' },
    wait: Wait.forLogMessage(/database system is ready to accept connections/, 2),
    url: (host: string, port: number) => `postgres://postgres@${host}:${port}/postgres`,
  },
  redis: {
    env: 'REDIS_URL',
    example: 'redis://127.0.0.1:6379',
    image: 'redis:7-alpine',
    port: 6379,
    containerEnv: {},
    wait: Wait.forLogMessage(/Ready to accept connections/),
    url: (host: string, port: number) => `redis://${host}:${port}`,
  },
  amqp: {
    env: 'AMQP_URL',
    example: 'amqp://guest:guest@127.0.0.1:5672',
    image: 'rabbitmq:4-alpine',
    port: 5672,
    containerEnv: {},
    wait: Wait.forLogMessage(/Server startup complete/),
    url: (host: string, port: number) => `amqp://guest:guest@${host}:${port}`,
  },
  mongo: {
    env: 'MONGO_URL',
    example: 'mongodb://127.0.0.1:27017',
    image: 'mongo:8',
    port: 27017,
    containerEnv: {},
    wait: Wait.forLogMessage(/Waiting for connections/),
    url: (host: string, port: number) => `mongodb://${host}:${port}`,
  },
  s3: {
    env: 'S3_URL',
    example: 'http://<access key>:<secret>@127.0.0.1:7070',
    image: 'versity/versitygw:v1.8.0',
    port: 7070,
    containerEnv: { ROOT_ACCESS_KEY_ID: 'fieldhouse-test', ROOT_SECRET_ACCESS_KEY: 'fieldhouse-test-secret' },
    // Two folders the image has (/tmp/vgw is made by its Dockerfile; alpine has /srv), the metadata one outside the other.
    command: ['--port', ':7070', 'posix', '--sidecar', '/tmp/vgw', '/srv'],
    wait: Wait.forListeningPorts(),
    url: (host: string, port: number) => `http://fieldhouse-test:fieldhouse-test-secret@${host}:${port}`,
  },
} as const;

export type BackingKind = keyof typeof KINDS;

const started = new Map<BackingKind, Promise<string>>();
const containers: StartedTestContainer[] = [];

async function startContainer(kind: BackingKind): Promise<string> {
  const spec = KINDS[kind];
  try {
    await getContainerRuntimeClient();
  } catch {
    throw new Error(
      `Tests need ${kind}: set ${spec.env} (for example ${spec.env}=${spec.example}), ` +
        `or make a container runtime available so testcontainers can start ${spec.image}.`,
    );
  }
  const image = new GenericContainer(spec.image)
    .withEnvironment({ ...spec.containerEnv })
    .withExposedPorts(spec.port)
    .withWaitStrategy(spec.wait);
  const container = await ('command' in spec ? image.withCommand([...spec.command]) : image).start();
  containers.push(container);
  return spec.url(container.getHost(), container.getMappedPort(spec.port));
}

/**
 * The URL of a backing service for tests: its environment variable when set
 * (`POSTGRES_URL`, `REDIS_URL`, `AMQP_URL`, `MONGO_URL`, `S3_URL`), else a container started once per
 * run with testcontainers, else an error naming the variable to set. Never skips.
 */
export function backingUrl(kind: BackingKind): Promise<string> {
  const fromEnv = process.env[KINDS[kind].env];
  if (fromEnv) return Promise.resolve(fromEnv);
  let url = started.get(kind);
  if (!url) {
    url = startContainer(kind);
    started.set(kind, url);
  }
  return url;
}

/** Stops the containers this run started (mocha root hook). */
export async function stopContainers(): Promise<void> {
  await Promise.all(containers.splice(0).map((c) => c.stop()));
}
