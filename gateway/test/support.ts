import { generateKeyPairSync } from 'node:crypto';
import { migrateLatest } from '@fieldhouse/db';
import { startServer, type RunningServer } from '@fieldhouse/http';
import { backingUrl, createTestDatabase, randomPrefix, testLogger } from '@fieldhouse/testkit';
import { composeGateway, type Gateway } from '../src/compose.ts';
import { loadGatewayConfig, type GatewayConfig } from '../src/config.ts';
import { migrations } from '../src/migrations/index.ts';

export interface TestGateway {
  /** `http://127.0.0.1:<port>` of the public (API) port. */
  url: string;
  gateway: Gateway;
  config: GatewayConfig;
  server: RunningServer;
  stop: () => Promise<void>;
}

/**
 * The gateway alone, on a free loopback port, with a fresh migrated identity database, the
 * real Redis (a random key prefix) and RabbitMQ (a random name prefix). No service runs behind
 * it: the upstream URLs point at a closed port. `env` overrides any variable.
 */
export async function startTestGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const db = await createTestDatabase('gateway');
  await migrateLatest(db.url, migrations);
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    REDIS_URL: await backingUrl('redis'),
    AMQP_URL: await backingUrl('amqp'),
    AMQP_PREFIX: randomPrefix('gw'),
    REDIS_PREFIX: randomPrefix('gw').replaceAll('.', ':'),
    COLLECTION_URL: 'http://127.0.0.1:1',
    POLLS_URL: 'http://127.0.0.1:1',
    EVENTS_URL: 'http://127.0.0.1:1',
    INTERNAL_JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
    ...env,
  });
  const logger = testLogger('gateway');
  const gateway = await composeGateway(config, logger);
  const server = await startServer(gateway.app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    lifecycle: gateway.lifecycle,
    answerHalfClosed: true, // as main.ts
  });
  return {
    url: server.url,
    gateway,
    config,
    server,
    stop: async () => {
      await server.stop();
      await gateway.close();
      await db.drop();
    },
  };
}
