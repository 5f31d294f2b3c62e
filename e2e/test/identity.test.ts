import { expect } from 'chai';
import request from 'supertest';
import { composeGateway } from '@fieldhouse/gateway';
import { startServer } from '@fieldhouse/http';
import { eventually, testLogger } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

describe('gateway identity (through the gateway, real services)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('registers, logs in on both login paths, shows me, logs out', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Lovelace');
    expect(alice.token).to.match(/^\d+\|[A-Za-z0-9]{40}[0-9a-f]{8}$/);

    for (const path of ['/api/v1/login', '/api/login']) {
      const res = await request(stack.gatewayUrl)
        .post(path)
        .send({ email: alice.email, password: alice.password })
        .expect(200);
      expect(res.body.user).to.deep.equal({ id: alice.id, name: 'Alice Lovelace', email: alice.email });
      expect(res.body.token).to.match(/^\d+\|/);
    }
    const me = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(me.body.data).to.include({ id: alice.id, name: 'Alice Lovelace', email: alice.email });
    expect(me.body.data).to.not.have.property('password_hash');

    await request(stack.gatewayUrl).post('/api/v1/logout').auth(alice.token, { type: 'bearer' }).expect(204);
    const after = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(401);
    expect(after.headers['content-type']).to.match(/^application\/problem\+json/);
  });

  it('answers wrong credentials with 401 and bad bodies with 422, the e-mail in any case', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const wrong = await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: 'nope-nope' })
      .expect(401);
    expect(wrong.body).to.include({ status: 401, message: 'These credentials do not match our records.' });
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: 'nobody@example.test', password: 'whatever1' })
      .expect(401);
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email.toUpperCase(), password: alice.password })
      .expect(200);
    const bad = await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email })
      .expect(422);
    expect(bad.body.errors).to.have.property('password');
    expect(bad.body).to.include({
      type: 'urn:fieldhouse:problem:validation-failed',
      title: 'Unprocessable Entity',
    });
  });

  it('refuses passwords over 72 bytes with 422 and a taken e-mail with 422', async () => {
    const long = 'é'.repeat(37); // 74 bytes
    const res = await request(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Long', email: 'long@example.test', password: long })
      .expect(422);
    expect(res.body.errors.password[0]).to.match(/72 bytes/);
    const alice = await registerUser(stack.gatewayUrl);
    const taken = await request(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Again', email: alice.email, password: 'another password' })
      .expect(422);
    expect(taken.body.errors.email).to.deep.equal(['The email has already been taken.']);
  });

  it('stores bcrypt hashes of cost 12 and token hashes only', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const row = await stack.identityDb('users').where({ id: alice.id }).first();
    expect(row.password_hash).to.match(/^\$2[aby]\$12\$/);
    const tokens = await stack.identityDb('personal_access_tokens').where({ user_id: alice.id });
    expect(tokens).to.have.length(1);
    expect(tokens[0].token_hash).to.match(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(tokens)).to.not.contain(alice.token.split('|')[1]);
  });

  it('creates, lists and revokes tokens; a revoked token gets 401 on the very next request', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const created = await request(stack.gatewayUrl)
      .post('/api/v1/tokens')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'field tablet' })
      .expect(201);
    const { token, data } = created.body;
    expect(token).to.equal(data.token);
    expect(data).to.include({ name: 'field tablet' });
    expect(token.startsWith(`${data.id}|`)).to.equal(true);

    await request(stack.gatewayUrl).get('/api/v1/me').auth(token, { type: 'bearer' }).expect(200);
    const list = await request(stack.gatewayUrl)
      .get('/api/v1/tokens?per_page=1')
      .auth(token, { type: 'bearer' })
      .expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(JSON.stringify(list.body)).to.not.contain(token.split('|')[1]);
    await request(stack.gatewayUrl)
      .get('/api/v1/tokens?per_page=101')
      .auth(token, { type: 'bearer' })
      .expect(422);

    await request(stack.gatewayUrl)
      .delete(`/api/v1/tokens/${data.id}`)
      .auth(alice.token, { type: 'bearer' })
      .expect(204);
    await request(stack.gatewayUrl).get('/api/v1/me').auth(token, { type: 'bearer' }).expect(401);
    await request(stack.gatewayUrl).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(200);
  });

  it('lets a token revoke itself, after which it is refused at once', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const id = alice.token.split('|')[0];
    await request(stack.gatewayUrl)
      .delete(`/api/v1/tokens/${id}`)
      .auth(alice.token, { type: 'bearer' })
      .expect(204);
    await request(stack.gatewayUrl).get('/api/v1/tokens').auth(alice.token, { type: 'bearer' }).expect(401);
  });

  it("does not let alice revoke bob's token (404), which keeps working", async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const bob = await registerUser(stack.gatewayUrl);
    const bId = bob.token.split('|')[0];
    const res = await request(stack.gatewayUrl)
      .delete(`/api/v1/tokens/${bId}`)
      .auth(alice.token, { type: 'bearer' })
      .expect(404);
    expect(res.body.status).to.equal(404);
    await request(stack.gatewayUrl)
      .delete('/api/v1/tokens/not-a-number')
      .auth(alice.token, { type: 'bearer' })
      .expect(404);
    await request(stack.gatewayUrl).get('/api/v1/me').auth(bob.token, { type: 'bearer' }).expect(200);
  });

  it('answers malformed and unknown tokens with 401, never 500', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const [id, secret] = alice.token.split('|') as [string, string];
    const flipped = secret.slice(0, 39) + (secret[39] === 'a' ? 'b' : 'a') + secret.slice(40);
    const candidates = [
      'abc',
      '1|',
      '|x',
      '999999|x',
      `1|${'x'.repeat(10_240)}`,
      `999999|${secret}`,
      `${id}|${flipped}`,
      `${id}|${secret}x`,
      `0${id}|${secret}`,
    ];
    for (const bad of candidates) {
      const res = await request(stack.gatewayUrl).get('/api/v1/me').set('Authorization', `Bearer ${bad}`);
      expect(res.status, bad.slice(0, 20)).to.equal(401);
      expect(res.body.message).to.be.a('string');
    }
    await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`)
      .expect(401);
    // A bad token on a proxied route is refused by the gateway too.
    await request(stack.gatewayUrl).get('/api/v1/_whoami').set('Authorization', 'Bearer abc').expect(401);
  });

  it('revokes a token on every gateway replica at once, although replicas cache verified tokens', async () => {
    const logger = testLogger('replica');
    // A cache that outlives the test: only the revocation message can end a cached token.
    const replica = await composeGateway({ ...stack.config, TOKEN_CACHE_SECONDS: 300 }, logger);
    const server = await startServer(replica.app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      lifecycle: replica.lifecycle,
    });
    try {
      await eventually(async () => replica.tokenCache.live && stack.gateway.tokenCache.live);
      const alice = await registerUser(stack.gatewayUrl);
      const id = alice.token.split('|')[0];
      // Warm both replicas' caches.
      await request(server.url).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(200);
      await request(stack.gatewayUrl).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(200);
      // The replica really answers from its cache: a token row removed behind its back still passes.
      const other = (
        await request(stack.gatewayUrl)
          .post('/api/v1/tokens')
          .auth(alice.token, { type: 'bearer' })
          .send({ name: 'probe' })
          .expect(201)
      ).body.token as string;
      await request(server.url).get('/api/v1/me').auth(other, { type: 'bearer' }).expect(200);
      await stack
        .identityDb('personal_access_tokens')
        .where({ id: Number(other.split('|')[0]) })
        .delete();
      await request(server.url).get('/api/v1/me').auth(other, { type: 'bearer' }).expect(200);
      await request(stack.gatewayUrl)
        .delete(`/api/v1/tokens/${id}`)
        .auth(alice.token, { type: 'bearer' })
        .expect(204);
      await eventually(
        async () =>
          (await request(server.url).get('/api/v1/me').auth(alice.token, { type: 'bearer' })).status === 401,
      );
      await request(stack.gatewayUrl).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(401);
    } finally {
      await server.stop();
      await replica.close();
    }
  });

  it('can turn registration off', async () => {
    const other = await startStack({ gatewayEnv: { REGISTRATION_ENABLED: 'false' } });
    try {
      const res = await request(other.gatewayUrl)
        .post('/api/v1/register')
        .send({ name: 'X', email: 'x@example.test', password: 'password123' })
        .expect(403);
      expect(res.body.code).to.equal('registration_disabled');
    } finally {
      await other.stop();
    }
  });
});
