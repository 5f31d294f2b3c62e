/**
 * The polls service behind the gateway as bench children (bench:polls, bench:streams): fresh
 * identity and MongoDB databases, the run's own Redis key prefix and RabbitMQ prefix, both
 * migrated, both ready, a registered user and one poll created through the gateway. Every
 * clean-up step is registered (bench/lib/run.ts).
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createClient } from 'redis';
import { dropDatabase } from '@fieldhouse/db';
import { provideBackingServices } from '../../scripts/lib/backing.ts';
import { benchBacking, signingKeyPem, withDatabase } from './backing.ts';
import {
  Child,
  cpuProfileArgs,
  freePort,
  gatewayChild,
  registerUser,
  ROOT,
  SERVER_ENV,
  waitReady,
} from './child.ts';
import { onCleanup } from './run.ts';

/** A poll as the gateway answered its creation. */
export interface BenchPoll {
  id: string;
  sections: Array<{ id: string; options: Array<{ id: string }> }>;
}

export interface PollsStack {
  gatewayUrl: string;
  pollsUrl: string;
  /** The polls service's metrics port (`GET /metrics`). */
  pollsMetricsUrl: string;
  polls: Child;
  gateway: Child;
  mongoUrl: string;
  mongoDb: string;
  redisUrl: string;
  /** Prefix of the run's Redis keys (`bench:<hex>:`). */
  prefix: string;
  suffix: string;
  poll: BenchPoll;
  /** The bearer token of the user who created `poll` (to create more). */
  token: string;
}

/**
 * Starts the stack; `label` names its databases (`bench_<label>_<hex>`); `pollBody` is the
 * poll to create; `beforeReady` runs with the children started (their pids known).
 */
export async function startPollsStack(
  label: string,
  pollBody: object,
  beforeReady: (children: { polls: Child; gateway: Child }) => void = () => undefined,
): Promise<PollsStack> {
  const backingServices = await provideBackingServices(ROOT);
  const suffix = randomBytes(4).toString('hex');
  const backing = benchBacking();
  const identityUrl = withDatabase(backing.postgres, `bench_${label}_identity_${suffix}`);
  const mongoUrl = process.env.MONGO_URL!;
  const mongoDb = `bench_${label}_${suffix}`;
  const prefix = `bench:${suffix}:`;
  const [gwPort, pollsPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gwPort}`;
  const pollsUrl = `http://127.0.0.1:${pollsPort}`;
  // Run in reverse: the children stop first (registered as they start), then what they used.
  onCleanup('stop the MongoDB-compatible store', () => backingServices.stop());
  onCleanup('drop the identity database', () => dropDatabase(identityUrl));
  onCleanup('drop the MongoDB database', async () => {
    const m = await MongoClient.connect(mongoUrl);
    try {
      await m.db(mongoDb).dropDatabase();
    } finally {
      await m.close();
    }
  });
  onCleanup('delete the Redis keys', async () => {
    const redis = createClient({ url: backing.redis });
    await redis.connect();
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(keys);
    } finally {
      await redis.close();
    }
  });
  await Promise.all([
    new Child('gateway migrate', 'gateway/src/migrate.ts', {
      ...SERVER_ENV,
      DATABASE_URL: identityUrl,
    }).succeeded(),
    new Child('polls migrate', 'services/polls/src/migrate.ts', {
      ...SERVER_ENV,
      MONGO_URL: mongoUrl,
      MONGO_DB: mongoDb,
    }).succeeded(),
  ]);
  const polls = new Child(
    'polls',
    'services/polls/src/main.ts',
    {
      ...SERVER_ENV,
      PORT: String(pollsPort),
      METRICS_PORT: String(metricsPort),
      MONGO_URL: mongoUrl,
      MONGO_DB: mongoDb,
      REDIS_URL: backing.redis,
      REDIS_PREFIX: prefix,
      AMQP_URL: backing.amqp,
      AMQP_PREFIX: `bench.${suffix}.`,
      GATEWAY_JWKS_URL: `${gatewayUrl}/.well-known/jwks.json`,
    },
    cpuProfileArgs('polls'),
  );
  onCleanup('stop polls', () => polls.stop(5_000));
  const gateway = gatewayChild({
    port: gwPort,
    databaseUrl: identityUrl,
    redisUrl: backing.redis,
    amqpUrl: backing.amqp,
    prefix: `bench.${suffix}.`,
    upstreams: { POLLS_URL: pollsUrl },
    privateKeyPem: signingKeyPem(),
  });
  onCleanup('stop gateway', () => gateway.stop(5_000));
  beforeReady({ polls, gateway });
  // A limit for a start that must come, not a speed target: on a loaded machine the service's
  // start (TypeScript loaded from source, indexes, connections) took more than a minute.
  await waitReady(polls, `${pollsUrl}/readyz`, 240_000);
  await waitReady(gateway, `${gatewayUrl}/readyz`, 240_000);

  const { token } = await registerUser(gatewayUrl, {
    name: 'Bench',
    email: `bench-${suffix}@example.test`,
    password: 'bench password 123',
  });
  const created = await fetch(`${gatewayUrl}/api/polls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(pollBody),
  });
  if (created.status !== 201)
    throw new Error(`poll creation failed: ${created.status} ${await created.text()}`);
  const poll = ((await created.json()) as { data: BenchPoll }).data;
  return {
    gatewayUrl,
    pollsUrl,
    pollsMetricsUrl: `http://127.0.0.1:${metricsPort}`,
    polls,
    gateway,
    mongoUrl,
    mongoDb,
    redisUrl: backing.redis,
    prefix,
    suffix,
    poll,
    token,
  };
}
