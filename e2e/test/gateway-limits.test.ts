import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

describe('gateway: per-user and per-IP limits on proxied routes, and which paths stay in the gateway', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack({
      // An hour's window: a minute's fixed window could roll over between two requests of a test.
      gatewayEnv: {
        RATE_LIMIT_USER: '4',
        RATE_LIMIT_IP: '12',
        RATE_LIMIT_SYNC_MS: '50',
        RATE_LIMIT_WINDOW_SECONDS: '3600',
      },
    });
  });
  after(async () => {
    await stack?.stop();
  });

  it('limits a user on a proxied route (429 problem, RateLimit headers) without touching other users', async () => {
    const [alice, bob] = [await registerUser(stack.gatewayUrl), await registerUser(stack.gatewayUrl)];
    for (let i = 0; i < 4; i++) {
      const ok = await request(stack.gatewayUrl)
        .get('/api/v1/_whoami')
        .auth(alice.token, { type: 'bearer' })
        .expect(200);
      expect(ok.headers['ratelimit']).to.match(/r=\d+/);
    }
    const limited = await request(stack.gatewayUrl)
      .get('/api/v1/_whoami')
      .auth(alice.token, { type: 'bearer' })
      .expect(429);
    expect(limited.body).to.include({ status: 429, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 3600);
    expect(limited.headers['content-type']).to.match(/^application\/problem\+json/);
    // The limit is the user's: another user from the same address still passes.
    await request(stack.gatewayUrl).get('/api/v1/_whoami').auth(bob.token, { type: 'bearer' }).expect(200);
  });

  it('limits an address across users and anonymous callers once the per-IP budget is spent', async () => {
    // Spend the address's 12 (fewer are left when the test above ran first).
    let status = 200;
    for (let i = 0; i <= 12 && status !== 429; i++) {
      status = (await request(stack.gatewayUrl).get('/api/polls/nothing-here')).status;
    }
    expect(status).to.equal(429);
    const limited = await request(stack.gatewayUrl).get('/api/v1/me').expect(429);
    expect(limited.body.code).to.equal('rate_limited');
  });
});

describe('gateway: identity paths under /api/v1 are answered by the gateway, the rest by the service', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('matches identity paths as Express would (any case, one trailing slash) and proxies the others', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    for (const path of ['/api/v1/me', '/API/V1/Me', '/api/v1/me/']) {
      const me = await request(stack.gatewayUrl).get(path).auth(alice.token, { type: 'bearer' }).expect(200);
      expect(me.body.data).to.include({ id: alice.id, email: alice.email });
    }
    const unknownToken = await request(stack.gatewayUrl)
      .delete('/api/v1/tokens/999999')
      .auth(alice.token, { type: 'bearer' })
      .expect(404);
    expect(unknownToken.body.detail).to.equal('No such token.');
    // Deeper paths are not identity routes: the collection service answers them.
    const who = await request(stack.gatewayUrl)
      .get('/api/v1/_whoami?x=1')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(who.body.data.userId).to.equal(alice.id);
    // Which deeper paths stay in the gateway: gateway/test/identity-paths.test.ts (both apps
    // answer an unknown route with the same 404, so it cannot be told apart from outside).
  });
});
