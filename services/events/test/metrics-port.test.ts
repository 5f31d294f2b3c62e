import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { backingUrl, randomPrefix, startServiceProcess, type ServiceProcess } from '@fieldhouse/testkit';
import { migrations } from '../src/migrations/index.ts';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');

describe('events process: /metrics on its internal port, the API port without it (real process)', () => {
  let service: ServiceProcess;
  let port: number;
  let metricsPort: number;

  before(async () => {
    service = await startServiceProcess(MAIN, {
      label: 'events_metrics',
      migrations,
      env: {
        LOG_LEVEL: 'warn',
        AMQP_URL: await backingUrl('amqp'),
        AMQP_PREFIX: randomPrefix('evm'),
        GATEWAY_JWKS_URL: 'http://127.0.0.1:1/.well-known/jwks.json',
      },
    });
    ({ port, metricsPort } = service);
  });
  after(async () => {
    await service?.stop();
  });

  it('serves metrics on the metrics port only; the API port keeps /healthz and /openapi.json', async () => {
    const api = `http://127.0.0.1:${port}`;
    expect((await fetch(`${api}/healthz`)).status).to.equal(200);
    // The gateway's /docs reads the service document here (docs/reliability.md, "Operations").
    const doc = await fetch(`${api}/openapi.json`);
    expect(doc.status).to.equal(200);
    expect(((await doc.json()) as { openapi: string }).openapi).to.equal('3.1.0');
    const onApi = await fetch(`${api}/metrics`);
    expect(onApi.status).to.equal(404);
    expect(onApi.headers.get('content-type')).to.match(/problem\+json/);

    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).to.equal(200);
    const text = await metrics.text();
    expect(text).to.match(/http_request_duration_seconds_count\{[^}]*route="\/healthz"/);
    expect(text).to.contain('nodejs_eventloop_lag_seconds');
  });
});
