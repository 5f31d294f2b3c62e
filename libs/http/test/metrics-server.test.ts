import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createBaseApp, finishApp, startMetricsServer, startServer } from '@fieldhouse/http';
import { testLogger } from '@fieldhouse/testkit';

describe('http: the internal metrics port', () => {
  const logger = testLogger('http');

  it('serves the process metrics there while the API app answers /metrics 404, and stops with the API', async () => {
    const { app, lifecycle } = createBaseApp({ logger });
    app.get('/hello', (_req, res) => void res.json({ hi: true }));
    finishApp(app, logger);
    const api = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      lifecycle,
      metrics: { port: 0, host: '127.0.0.1' },
    });
    const metrics = api.metrics!;
    let stopped = false;
    try {
      await fetch(`${api.url}/hello`);
      const onApi = await fetch(`${api.url}/metrics`);
      expect(onApi.status).to.equal(404);
      expect(onApi.headers.get('content-type')).to.match(/problem\+json/);
      const res = await fetch(`${metrics.url}/metrics`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.match(/http_request_duration_seconds_count\{[^}]*route="\/hello"/);
      const other = await fetch(`${metrics.url}/hello`);
      expect(other.status).to.equal(404);
      await api.stop();
      stopped = true;
      let refused = false;
      await fetch(`${metrics.url}/metrics`).catch(() => (refused = true));
      expect(refused).to.equal(true);
    } finally {
      if (!stopped) await api.stop();
    }
  });

  it('keeps the process going without metrics when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const spy = testLogger('http');
    spy.error = ((msg: string) => (lines.push(msg), spy)) as typeof spy.error;
    try {
      const port = (taken.address() as AddressInfo).port;
      expect(await startMetricsServer({ port, host: '127.0.0.1', logger: spy })).to.equal(undefined);
      expect(lines.join('\n')).to.contain(`metrics port 127.0.0.1:${port} unavailable`);
    } finally {
      taken.close();
    }
  });
});
