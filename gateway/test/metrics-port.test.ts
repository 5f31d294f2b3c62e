import { generateKeyPairSync } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { migrateLatest } from '@fieldhouse/db';
import {
  acceptsConnections,
  backingUrl,
  createTestDatabase,
  freeTcpPort,
  randomPrefix,
  startNodeProcess,
  waitForListening,
  type TestDatabase,
  type TestProcess,
} from '@fieldhouse/testkit';
import { migrations } from '../src/migrations/index.ts';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');

/** An IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('gateway process: /metrics on its internal port only (real gateway process)', () => {
  let db: TestDatabase;
  let proc: TestProcess;
  let port: number;
  let metricsPort: number;

  before(async () => {
    db = await createTestDatabase('gateway_metrics');
    await migrateLatest(db.url, migrations);
    [port, metricsPort] = [await freeTcpPort(), await freeTcpPort()];
    proc = startNodeProcess(MAIN, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: db.url,
      REDIS_URL: await backingUrl('redis'),
      REDIS_PREFIX: randomPrefix('gwm').replaceAll('.', ':'),
      AMQP_URL: await backingUrl('amqp'),
      AMQP_PREFIX: randomPrefix('gwm'),
      INTERNAL_JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
    });
    await waitForListening(proc, port);
    await waitForListening(proc, metricsPort);
  });
  after(async () => {
    await proc?.stop();
    await db?.drop();
  });

  it('answers /metrics on the public port with a 404 problem; probes stay there', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/problem\+json/);
    expect(await res.text()).to.not.contain('http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).to.equal(200);
  });

  it('serves the metrics of the public port on the metrics port, and nothing else there', async () => {
    await fetch(`http://127.0.0.1:${port}/.well-known/jwks.json`);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await res.text();
    expect(text).to.match(/http_request_duration_seconds_bucket\{[^}]*route="\/\.well-known\/jwks\.json"/);
    expect(text).to.contain('process_cpu_user_seconds_total');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/login`)).status).to.equal(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).to.equal(404);
  });

  it('binds both ports to loopback by default (HOST, METRICS_HOST)', async () => {
    expect(proc.output()).to.contain(`metrics on http://127.0.0.1:${metricsPort}/metrics`);
    const external = externalAddress();
    if (external) {
      expect(await acceptsConnections(port, external)).to.equal(false);
      expect(await acceptsConnections(metricsPort, external)).to.equal(false);
    }
  });
});
