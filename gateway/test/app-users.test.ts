import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import jwt from 'jsonwebtoken';
import winston from 'winston';
import { migrateLatest } from '@fieldhouse/db';
import { startServer, type RunningServer } from '@fieldhouse/http';
import { createLogger } from '@fieldhouse/logger';
import { backingUrl, createTestDatabase, randomPrefix, type TestDatabase } from '@fieldhouse/testkit';
import { composeGateway, type Gateway } from '../src/compose.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { migrations } from '../src/migrations/index.ts';

/*
 * App users at the gateway (issue 35; docs/identity.md, "App users"): the key in an OpenRosa
 * server address is taken out of the path before anything logs it, authenticated by the
 * collection service (a stand-in here), and forwarded as the app user (`amr: app_user`, `apu`)
 * to its project's OpenRosa routes only; signed-in callers may use HTTP Basic with a personal
 * access token there.
 */
describe('gateway: app users', () => {
  const KEY = 'A'.repeat(40);
  let key = '';
  let revokedKey = '';
  let db: TestDatabase;
  let gateway: Gateway;
  let server: RunningServer;
  let upstream: RunningServer;
  let url = '';
  const lines: string[] = [];
  const seen: Array<{ path: string; claims: Record<string, unknown>; base: unknown }> = [];
  let lookups = 0;

  before(async () => {
    const { crc32 } = await import('node:zlib');
    key = KEY + crc32(KEY).toString(16).padStart(8, '0');
    const other = 'B'.repeat(40);
    revokedKey = other + crc32(other).toString(16).padStart(8, '0');
    // The collection service's side: the key lookup, and an echo of what reaches it.
    const app = express();
    app.use(express.json());
    app.post('/api/v1/app-users/authenticate', (req, res) => {
      lookups++;
      const body = req.body as { key: string };
      if (body.key === key) return void res.json({ id: 7, project_id: 42, display_name: 'Tablet' });
      res
        .status(401)
        .type('application/problem+json')
        .json({
          status: 401,
          code: body.key === revokedKey ? 'app_user_revoked' : 'unauthenticated',
          detail: 'Refused.',
        });
    });
    // A form list the service fails to answer (its connection dropped): the gateway's 502.
    app.get('/api/v1/projects/42/formList', (req, res, next) => {
      if (req.query.drop === undefined) return next();
      req.socket.destroy();
    });
    app.use((req, res) => {
      const claims = jwt.decode(String(req.headers.authorization).slice(7)) as Record<string, unknown>;
      seen.push({ path: req.url, claims, base: req.headers['x-gateway-openrosa-base'] });
      res.status(200).json({ ok: true });
    });
    upstream = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ service: 'up', level: 'silent' }),
      lifecycle: { shuttingDown: false },
    });

    db = await createTestDatabase('gateway');
    await migrateLatest(db.url, migrations);
    const config = loadGatewayConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: await backingUrl('redis'),
      AMQP_URL: await backingUrl('amqp'),
      AMQP_PREFIX: randomPrefix('gw'),
      REDIS_PREFIX: randomPrefix('gw').replaceAll('.', ':'),
      COLLECTION_URL: upstream.url,
      POLLS_URL: 'http://127.0.0.1:1',
      EVENTS_URL: 'http://127.0.0.1:1',
      INTERNAL_JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
    });
    // Every line the gateway logs, the access log (level http) included.
    const logger = createLogger({ service: 'gateway', level: 'http', json: true });
    logger.clear();
    logger.add(
      new winston.transports.Stream({
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      }),
    );
    gateway = await composeGateway(config, logger);
    server = await startServer(gateway.app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      lifecycle: gateway.lifecycle,
    });
    url = server.url;
  });
  after(async () => {
    await server?.stop();
    await gateway?.close();
    await upstream?.stop();
    await db?.drop();
  });

  it('forwards an app user to its OpenRosa routes without the key, as the app user', async () => {
    const res = await fetch(`${url}/api/v1/key/${key}/projects/42/formList?formID=x`);
    expect(res.status).to.equal(200);
    const last = seen.at(-1)!;
    expect(last.path).to.equal('/api/v1/projects/42/formList?formID=x');
    expect(last.claims).to.include({ amr: 'app_user' });
    expect(last.claims.apu).to.deep.equal({ id: 7, prj: 42 });
    expect(last.claims).not.to.have.property('sub');
    expect(last.base).to.equal(`/api/v1/key/${key}`);
    for (const path of ['submission', 'forms/fieldhouse-42.xml', 'forms/fieldhouse-42/manifest'])
      expect((await fetch(`${url}/api/v1/key/${key}/projects/42/${path}`)).status).to.equal(200);
  });

  it('keeps an app user to its own project’s OpenRosa routes (403 app_user_scope)', async () => {
    for (const path of [
      '/projects/43/formList',
      '/projects/42',
      '/projects/42/submissions',
      '/me',
      '/tokens',
    ]) {
      const res = await fetch(`${url}/api/v1/key/${key}${path}`);
      expect(res.status, path).to.equal(403);
      if (path.endsWith('/formList')) {
        // An OpenRosa route: the refusal is an OpenRosaResponse, which ODK Collect shows its user.
        expect(res.headers.get('content-type')).to.match(/^text\/xml/);
        expect(res.headers.get('x-openrosa-version')).to.equal('1.0');
        expect(await res.text()).to.include('<message nature="error">An app user may only download');
      } else expect(((await res.json()) as { code: string }).code).to.equal('app_user_scope');
    }
  });

  it('refuses a malformed, unknown or revoked key with 401, the malformed one without asking the service', async () => {
    const before = lookups;
    expect((await fetch(`${url}/api/v1/key/not-a-key/projects/42/formList`)).status).to.equal(401);
    expect(lookups).to.equal(before);
    const unknown = `${'C'.repeat(40)}00000000`;
    expect((await fetch(`${url}/api/v1/key/${unknown}/projects/42/formList`)).status).to.equal(401);
    const revoked = await fetch(`${url}/api/v1/key/${revokedKey}/projects/42/submission`, { method: 'HEAD' });
    expect(revoked.status).to.equal(401);
    expect(revoked.headers.get('x-openrosa-version')).to.equal('1.0');
    expect(revoked.headers.get('x-openrosa-accept-content-length')).to.match(/^\d+$/);
    const body = await (await fetch(`${url}/api/v1/key/${unknown}/projects/42/formList`)).text();
    expect(body).to.match(
      /^<\?xml .*<OpenRosaResponse xmlns="http:\/\/openrosa.org\/http\/response"><message nature="error">/,
    );
  });

  it('tells an OpenRosa client in OpenRosa words that the service is unreachable, and others in a problem document', async () => {
    const underKey = await fetch(`${url}/api/v1/key/${key}/projects/42/formList?drop=1`);
    expect(underKey.status).to.equal(502);
    expect(underKey.headers.get('content-type')).to.match(/^text\/xml/);
    expect(underKey.headers.get('x-openrosa-version')).to.equal('1.0');
    expect(await underKey.text()).to.match(
      /<OpenRosaResponse xmlns="http:\/\/openrosa.org\/http\/response"><message nature="error">The collection service is unavailable/,
    );
    // Without the key or the OpenRosa header: the problem document every other client reads.
    const plain = await fetch(`${url}/api/v1/projects/42/formList?drop=1`);
    expect(plain.status).to.equal(502);
    expect(plain.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(((await plain.json()) as { code: string }).code).to.equal('upstream_unavailable');
  });

  it('never writes a key to its log (access log, refusals)', async () => {
    await fetch(`${url}/api/v1/key/${key}/projects/42/formList`);
    await fetch(`${url}/api/v1/key/${revokedKey}/projects/42/formList`);
    await fetch(`${url}/api/v1/key/${key}/projects/1/formList`);
    const logged = lines.join('');
    expect(logged).to.include('/api/v1/projects/42/formList');
    expect(logged).not.to.include(KEY);
    expect(logged).not.to.include('B'.repeat(40));
  });

  it('takes HTTP Basic with a personal access token as the password on the OpenRosa routes only', async () => {
    const reg = await fetch(`${url}/api/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ada',
        email: `ada${Date.now()}@example.test`,
        password: 'correct horse battery',
      }),
    });
    const { token, user } = (await reg.json()) as { token: string; user: { id: number; email: string } };
    const basic = (password: string) =>
      `Basic ${Buffer.from(`${user.email}:${password}`).toString('base64')}`;
    const ok = await fetch(`${url}/api/v1/projects/42/formList`, {
      headers: { authorization: basic(token) },
    });
    expect(ok.status).to.equal(200);
    expect(seen.at(-1)!.claims).to.include({ amr: 'token', sub: String(user.id) });
    expect(seen.at(-1)!.base).to.equal(undefined);
    const wrong = await fetch(`${url}/api/v1/projects/42/formList`, {
      headers: { authorization: basic('nope') },
    });
    expect(wrong.status).to.equal(401);
    // Elsewhere HTTP Basic is no credential.
    expect((await fetch(`${url}/api/v1/me`, { headers: { authorization: basic(token) } })).status).to.equal(
      401,
    );
  });
});
