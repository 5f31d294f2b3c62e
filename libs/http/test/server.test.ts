import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { createBaseApp, finishApp, jsonBody, startServer } from '@fieldhouse/http';
import { ProblemError } from '@fieldhouse/problem';
import { testLogger } from '@fieldhouse/testkit';

describe('http bootstrap', () => {
  const logger = testLogger('http');

  it('finishes in-flight requests on stop, refuses new ones and then runs the shutdown hooks', async () => {
    const { app, lifecycle } = createBaseApp({ logger });
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      app.get('/slow', (_req, res) => {
        resolve();
        release = () => res.json({ done: true });
      });
    });
    finishApp(app, logger);
    const closed: string[] = [];
    const server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      lifecycle,
      onShutdown: [async () => void closed.push('pool')],
    });
    const inFlight = fetch(`${server.url}/slow`);
    await started;
    const stopping = server.stop();
    expect(lifecycle.shuttingDown).to.equal(true);
    await fetch(`${server.url}/healthz`).then(
      () => expect.fail('a new connection should be refused'),
      (err: Error) => expect(err).to.be.instanceOf(Error),
    );
    expect(closed).to.deep.equal([]);
    release();
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ done: true });
    await stopping;
    expect(closed).to.deep.equal(['pool']);
  });

  it('answers /readyz 503 when a critical dependency is down, 200 when only an optional one is', async () => {
    const down = { name: 'db', check: () => Promise.reject(new Error('x')) };
    const optional = { name: 'cache', check: () => Promise.reject(new Error('x')), critical: false };
    const a = createBaseApp({ logger, readiness: [down] }).app;
    const res = await request(a).get('/readyz').expect(503);
    expect(res.body.checks).to.deep.equal({ db: 'down' });
    const b = createBaseApp({ logger, readiness: [optional, { name: 'ok', check: async () => 1 }] }).app;
    const ok = await request(b).get('/readyz').expect(200);
    expect(ok.body.checks).to.deep.equal({ cache: 'down', ok: 'ok' });
  });

  it('turns errors into problem documents and never shows internals of a 500', async () => {
    const { app } = createBaseApp({ logger });
    app.use(jsonBody('10b'));
    app.get('/boom', () => {
      throw new Error('SELECT * FROM secret_table at /srv/app.js:12');
    });
    app.get('/teapot', () => {
      throw new ProblemError(409, 'The version is published.', {
        code: 'version_frozen',
        headers: { 'X-Why': 'frozen' },
      });
    });
    app.post('/echo', (req, res) => void res.json(req.body));
    finishApp(app, logger);
    const boom = await request(app).get('/boom').expect(500);
    expect(boom.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(boom.body).to.include({ status: 500, title: 'Internal Server Error', code: 'internal_error' });
    expect(JSON.stringify(boom.body)).to.not.match(/secret_table|app\.js|stack/);
    const conflict = await request(app).get('/teapot').expect(409);
    expect(conflict.headers['x-why']).to.equal('frozen');
    expect(conflict.body).to.deep.equal({
      type: 'urn:fieldhouse:problem:version-frozen',
      title: 'Conflict',
      status: 409,
      detail: 'The version is published.',
      message: 'The version is published.',
      code: 'version_frozen',
    });
    await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send('{"a":1234567890}')
      .expect(413);
  });

  it('keeps a well-formed X-Request-Id and makes one up otherwise', async () => {
    const app = express();
    const base = createBaseApp({ logger }).app;
    app.use(base);
    const kept = await request(base).get('/healthz').set('X-Request-Id', 'abc-123').expect(200);
    expect(kept.headers['x-request-id']).to.equal('abc-123');
    const made = await request(base).get('/healthz').set('X-Request-Id', 'x'.repeat(200)).expect(200);
    expect(made.headers['x-request-id']).to.have.length(36);
  });
});
