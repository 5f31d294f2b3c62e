import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { backingUrl } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

const listen = (server: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

describe('gateway edges: limits, bad input, upstream failures, CORS, health', () => {
  let stack: TestStack;
  let hanging: Server;
  let hangingPort: number;
  before(async () => {
    hanging = createServer(() => undefined); // accepts and never answers
    hangingPort = await listen(hanging);
    stack = await startStack({
      gatewayEnv: {
        RATE_LIMIT_LOGIN: '3',
        POLLS_URL: `http://127.0.0.1:${hangingPort}`,
        EVENTS_URL: 'http://127.0.0.1:1',
        // Applies to the real collection service too (the 404 test below goes through it): a
        // limit a loaded machine's answers stay far below; the hanging upstream never answers.
        UPSTREAM_TIMEOUT_MS: '5000',
      },
    });
  });
  after(async () => {
    await stack?.stop();
    hanging.closeAllConnections();
    hanging.close();
  });

  it('limits failed logins per IP and e-mail: 429 with Retry-After and RateLimit headers', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    for (let i = 0; i < 3; i++) {
      await request(stack.gatewayUrl)
        .post('/api/v1/login')
        .send({ email: alice.email, password: 'wrong-password' })
        .expect(401);
    }
    const limited = await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: alice.password })
      .expect(429);
    expect(Number(limited.headers['retry-after'])).to.be.greaterThan(0);
    expect(limited.headers['ratelimit']).to.be.a('string');
    expect(limited.headers['ratelimit-policy']).to.be.a('string');
    expect(limited.body).to.include({ status: 429, code: 'rate_limited' });
    // Another e-mail from the same address is not blocked by these failures.
    const bob = await registerUser(stack.gatewayUrl);
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: bob.email, password: bob.password })
      .expect(200);
  });

  it('answers an unreachable upstream with 502 and a slow one with 504, naming no host', async () => {
    const down = await request(stack.gatewayUrl).get('/api/events').expect(502);
    expect(down.headers['content-type']).to.match(/problem\+json/);
    expect(down.body).to.include({ status: 502, code: 'upstream_unavailable' });
    expect(JSON.stringify(down.body)).to.not.match(/127\.0\.0\.1|localhost|:1\b/);
    const slow = await request(stack.gatewayUrl).get('/api/polls/abc/results').expect(504);
    expect(slow.body).to.include({ status: 504, code: 'upstream_timeout' });
    expect(JSON.stringify(slow.body)).to.not.contain(String(hangingPort));
  });

  it('refuses bodies over the limit with 413 and invalid JSON with 400, as problems', async () => {
    const big = { name: 'x'.repeat(2 * 1024 * 1024), email: 'big@example.test', password: 'password123' };
    const tooLarge = await request(stack.gatewayUrl).post('/api/v1/register').send(big).expect(413);
    expect(tooLarge.body).to.include({ status: 413 });
    const proxiedTooLarge = await request(stack.gatewayUrl)
      .post('/api/v1/_whoami')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }))
      .expect(413);
    expect(proxiedTooLarge.headers['content-type']).to.match(/problem\+json/);
    const broken = await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c",')
      .expect(400);
    expect(broken.body).to.include({ status: 400, code: 'invalid_json' });
    const brokenProxied = await request(stack.gatewayUrl)
      .post('/api/v1/_whoami')
      .set('Content-Type', 'application/json')
      .send('{nope')
      .expect(400);
    expect(brokenProxied.body.code).to.equal('invalid_json');
  });

  it('answers unknown routes with a 404 problem', async () => {
    const res = await request(stack.gatewayUrl).get('/nothing-here').expect(404);
    expect(res.headers['content-type']).to.match(/problem\+json/);
    const svc = await request(stack.gatewayUrl).get('/api/v1/no-such-route').expect(404);
    expect(svc.body.status).to.equal(404);
  });

  it('allows CORS with credentials only for listed origins', async () => {
    const ok = await request(stack.gatewayUrl)
      .options('/api/v1/me')
      .set('Origin', 'https://app.example.test')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(ok.headers['access-control-allow-origin']).to.equal('https://app.example.test');
    expect(ok.headers['access-control-allow-credentials']).to.equal('true');
    const other = await request(stack.gatewayUrl)
      .options('/api/v1/me')
      .set('Origin', 'https://evil.example.test')
      .set('Access-Control-Request-Method', 'GET');
    expect(other.headers).to.not.have.property('access-control-allow-origin');
    expect(other.headers).to.not.have.property('access-control-allow-credentials');
  });

  it('serves health, readiness and the API documents, but no metrics on the public port', async () => {
    await request(stack.gatewayUrl).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(stack.gatewayUrl).get('/readyz').expect(200);
    expect(ready.body.checks).to.include({ postgres: 'ok' });
    // Metrics are on the internal METRICS_PORT only (gateway/test/metrics-port.test.ts).
    const metrics = await request(stack.gatewayUrl).get('/metrics').expect(404);
    expect(metrics.headers['content-type']).to.match(/problem\+json/);
    const doc = await request(stack.gatewayUrl).get('/docs/gateway.json').expect(200);
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.paths).to.have.property('/api/v1/tokens/{token_id}');
    const collection = await request(stack.gatewayUrl).get('/docs/collection.json').expect(200);
    expect(collection.body.openapi).to.equal('3.1.0');
    await request(stack.gatewayUrl).get('/docs/events.json').expect(502);
    // The AsyncAPI documents of the webhooks, beside them: as the service serves it, or 502.
    const hooks = await request(stack.gatewayUrl).get('/docs/collection.asyncapi.json').expect(200);
    expect(hooks.body.asyncapi).to.equal('3.0.0');
    expect(hooks.body.channels).to.have.property('submission.created');
    for (const down of ['events', 'polls']) {
      const res = await request(stack.gatewayUrl).get(`/docs/${down}.asyncapi.json`).expect(502);
      expect(res.body, down).to.include({ status: 502, code: 'upstream_unavailable' });
    }
    const ui = await request(stack.gatewayUrl).get('/docs/').expect(200);
    expect(ui.text).to.contain('swagger-ui');
    for (const url of [stack.serviceUrls.collection]) {
      await request(url).get('/readyz').expect(200);
      await request(url).get('/openapi.json').expect(200);
      expect((await request(url).get('/asyncapi.json').expect(200)).body).to.deep.equal(hooks.body);
      await request(url).get('/metrics').expect(404);
    }
  });
});

describe('gateway with Redis stopped', () => {
  let stack: TestStack;
  let proxy: ReturnType<typeof createTcpServer>;
  const sockets = new Set<Socket>();
  let accepting = true;

  before(async () => {
    // A TCP relay to the real Redis that the test can cut, as if Redis died.
    const target = new URL(await backingUrl('redis'));
    proxy = createTcpServer((client) => {
      if (!accepting) return void client.destroy();
      const upstream = connect(Number(target.port || 6379), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => (client.destroy(), upstream.destroy());
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    const port = await listen(proxy);
    stack = await startStack({
      gatewayEnv: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_LOGIN: '2' },
    });
  });
  after(async () => {
    await stack?.stop();
    proxy.close();
  });

  it('keeps serving (limits fail open) and authentication still holds', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    accepting = false;
    for (const s of sockets) s.destroy();
    for (let i = 0; i < 4; i++) {
      await request(stack.gatewayUrl)
        .post('/api/v1/login')
        .send({ email: alice.email, password: 'wrong-password' })
        .expect(401);
    }
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: alice.password })
      .expect(200);
    await request(stack.gatewayUrl).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(200);
    await request(stack.gatewayUrl).get('/api/v1/me').set('Authorization', 'Bearer 1|nope').expect(401);
    const who = await request(stack.gatewayUrl)
      .get('/api/v1/_whoami')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(who.body.data.userId).to.equal(alice.id);
    const ready = await request(stack.gatewayUrl).get('/readyz').expect(200);
    expect(ready.body.checks).to.include({ redis: 'down', postgres: 'ok' });
  });
});
