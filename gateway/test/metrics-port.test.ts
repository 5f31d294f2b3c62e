import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  acceptsConnections,
  backingUrl,
  randomPrefix,
  type TestProcess,
  startServiceProcess,
  type ServiceProcess,
} from '@fieldhouse/testkit';
import { migrations } from '../src/migrations/index.ts';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');

/** An IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** The IPv4 addresses a socket listens on at `port`, from the kernel's /proc/net/tcp. */
async function listeningAddresses(port: number): Promise<string[]> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return (await readFile('/proc/net/tcp', 'utf8'))
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
    .map((cols) => {
      const ip = cols[1]!.split(':')[0]!;
      return [6, 4, 2, 0].map((i) => parseInt(ip.slice(i, i + 2), 16)).join('.');
    });
}

describe('gateway process: /metrics on its internal port only (real gateway process)', () => {
  let service: ServiceProcess;
  let proc: TestProcess;
  let port: number;
  let metricsPort: number;

  before(async () => {
    service = await startServiceProcess(MAIN, {
      label: 'gateway_metrics',
      migrations,
      env: {
        LOG_LEVEL: 'info',
        REDIS_URL: await backingUrl('redis'),
        REDIS_PREFIX: randomPrefix('gwm').replaceAll('.', ':'),
        AMQP_URL: await backingUrl('amqp'),
        AMQP_PREFIX: randomPrefix('gwm'),
        INTERNAL_JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .privateKey.export({ format: 'pem', type: 'pkcs8' })
          .toString(),
      },
    });
    ({ proc, port, metricsPort } = service);
  });
  after(async () => {
    await service?.stop();
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
    // The kernel's table of listening IPv4 sockets: both ports on 127.0.0.1 only.
    expect(await listeningAddresses(port)).to.deep.equal(['127.0.0.1']);
    expect(await listeningAddresses(metricsPort)).to.deep.equal(['127.0.0.1']);
    const external = externalAddress();
    if (external) {
      expect(await acceptsConnections(port, external)).to.equal(false);
      expect(await acceptsConnections(metricsPort, external)).to.equal(false);
    }
  });
});
