import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { Router } from 'express';
import request from 'supertest';
import { postgresProbe } from '@fieldhouse/db';
import { eventually, testLogger } from '@fieldhouse/testkit';
import { createServiceApp, type StoreWatch } from '../src/index.ts';

/**
 * A TCP relay to the real PostgreSQL that can be frozen: while frozen it keeps every
 * connection open and passes nothing (a store whose process lives but whose operations hang).
 */
class FreezableRelay {
  frozen = false;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.server = createServer((client) => {
      const upstream = createConnection(target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      const pass = (from: Socket, to: Socket) => from.on('data', (d) => !this.frozen && to.write(d));
      pass(client, upstream);
      pass(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('libs/http: the store watch answers 503 at once while a store hangs (real PostgreSQL)', () => {
  const pgUrl = new URL(process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  let relay: FreezableRelay;
  let watch: StoreWatch | undefined;
  let probe: ReturnType<typeof postgresProbe>;
  let writes = 0;

  before(async () => {
    relay = new FreezableRelay({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    await relay.start();
    const through = new URL(pgUrl);
    through.hostname = '127.0.0.1';
    through.port = String(relay.port);
    // Limits far above a loaded machine's slowest answer: a hang is a probe that never answers,
    // whatever the limit, so a generous one proves the same and never trips on mere load.
    probe = postgresProbe(through.toString(), 2_000);
  });
  after(async () => {
    watch?.stop();
    await probe.close();
    await relay.stop();
  });

  it('refuses with 503 store_unavailable and Retry-After while the probe hangs, and serves again once it answers', async () => {
    const routes = Router();
    routes.post('/api/things', (_req, res) => {
      writes++;
      res.status(201).json({ ok: true });
    });
    const made = createServiceApp({
      logger: testLogger(),
      readiness: [],
      bodyLimit: '1mb',
      prefix: '/api',
      authenticate: (_req, _res, next) => next(),
      openApi: {},
      routes,
      stores: [{ name: 'postgres', probe: probe.probe }],
      storeWatch: { intervalMs: 50, timeoutMs: 2_000, failuresToTrip: 1 },
    });
    watch = made.storeWatch;
    const app = made.app;
    await eventually(async () => (await request(app).post('/api/things').send({})).status === 201, 20_000);
    expect(watch!.unresponsive).to.deep.equal([]);

    relay.frozen = true;
    await eventually(async () => watch!.unresponsive.includes('postgres'), 20_000);
    const before = writes;
    const refused = await request(app).post('/api/things').send({});
    expect(refused.status).to.equal(503);
    expect(refused.headers['retry-after']).to.equal('2');
    expect(refused.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(refused.body).to.include({ status: 503, type: 'urn:fieldhouse:problem:store-unavailable' });
    expect(refused.body.detail).to.contain('nothing was changed');
    expect(writes).to.equal(before); // the route never ran
    // The process itself is alive: its liveness stays 200.
    expect((await request(app).get('/healthz')).status).to.equal(200);

    relay.frozen = false;
    await eventually(async () => watch!.unresponsive.length === 0, 20_000);
    expect((await request(app).post('/api/things').send({})).status).to.equal(201);
  });
});
