import { createHash } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { backingUrl, testLogger } from '@fieldhouse/testkit';
import { LoginThrottle } from '../src/identity/login-throttle.ts';
import { normalizeEmail } from '../src/identity/users-repo.ts';
import { createRedis, readyOrTimeout, type RedisClient } from '../src/redis.ts';
import { startTestGateway, type TestGateway } from './support.ts';

const PASSWORD = 'correct horse battery';
/**
 * The first delay: far longer than any run of these tests takes, so a block never ends by
 * itself while a test still counts on it, however loaded the machine. A delay "being over" is
 * made by moving the block's end to now in Redis ({@link endBlock}), not by waiting.
 */
const BASE_SECONDS = 60;

describe('gateway: per-account login throttling with backoff (real Redis, real PostgreSQL)', function () {
  // Up to 13 logins in a row, each a bcrypt check at cost 12: seconds apiece on a loaded machine.
  this.timeout(120_000);
  let gw: TestGateway;
  let redis: RedisClient;
  let n = 0;
  /** A new address each call: the per-(address, e-mail) limiter never sees two attempts. */
  const freshAddress = () => `198.51.100.${++n}`;
  const login = (email: string, password: string, address = freshAddress()) =>
    request(gw.url).post('/api/v1/login').set('X-Forwarded-For', address).send({ email, password });
  const newUser = async () => {
    const email = `throttle${Date.now()}${n++}@example.test`;
    await request(gw.url).post('/api/v1/register').send({ name: 'T', email, password: PASSWORD }).expect(201);
    return email;
  };
  /** The end of `email`'s block moved to now, as if its delay had passed (the throttle's own key). */
  const endBlock = async (email: string) => {
    const id = createHash('sha256').update(normalizeEmail(email)).digest('base64url').slice(0, 22);
    // 0 fields added: the block's `until` existed and was moved.
    expect(
      await redis.hSet(`${gw.config.REDIS_PREFIX}login:acct:${id}`, 'until', String(Date.now())),
    ).to.equal(0);
  };

  before(async () => {
    gw = await startTestGateway({
      LOGIN_ACCOUNT_FAILURES: '5',
      LOGIN_BACKOFF_BASE_SECONDS: String(BASE_SECONDS),
      LOGIN_BACKOFF_MAX_SECONDS: String(10 * BASE_SECONDS),
    });
    redis = createRedis(await backingUrl('redis'), testLogger());
    await readyOrTimeout(redis, 5_000);
  });
  after(async () => {
    redis?.destroy();
    await gw?.stop();
  });

  it('refuses the 6th to 12th wrong password from twelve addresses with 429 and Retry-After', async () => {
    const email = await newUser();
    const statuses: number[] = [];
    const refused: request.Response[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await login(email, 'wrong password');
      statuses.push(res.status);
      if (res.status === 429) refused.push(res);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    for (const res of refused) {
      expect(Number(res.headers['retry-after'])).to.be.within(1, BASE_SECONDS);
      expect(res.headers['content-type']).to.match(/problem\+json/);
      expect(res.body).to.include({ status: 429, code: 'rate_limited' });
    }
    // While the account is blocked, the right password from a new address is refused too (not
    // even checked: the answer says nothing about the password).
    const right = await login(email, PASSWORD);
    expect(right.status).to.equal(429);
  });

  it('lets no more than the threshold of parallel guesses check a password', async () => {
    const email = await newUser();
    const statuses = (
      await Promise.all(Array.from({ length: 12 }, () => login(email, 'wrong password')))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).to.have.length(5);
    expect(statuses.filter((s) => s === 429)).to.have.length(7);
  });

  it('forgets a known address once its own last sign-in is older than the lifetime', async () => {
    const email = await newUser();
    const home = freshAddress();
    await login(email, PASSWORD, home).expect(200);
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    await login(email, PASSWORD, home).expect(200); // known: let in during the block
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    // Its last sign-in moved back past the 30 days of LOGIN_KNOWN_ADDRESS_DAYS.
    for (const key of await redis.keys(`${gw.config.REDIS_PREFIX}login:known:*`))
      if ((await redis.zScore(key, home)) !== null)
        await redis.zAdd(key, { score: Date.now() - 31 * 86_400_000, value: home });
    await login(email, PASSWORD, home).expect(429);
  });

  it('lets the right password in once the delay is over, and the delay doubles with each failure', async () => {
    const email = await newUser();
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    const first = await login(email, 'wrong password').expect(429);
    expect(Number(first.headers['retry-after'])).to.be.within(1, BASE_SECONDS);
    await endBlock(email);
    // One more failure once the block is over: blocked again for twice the delay.
    await login(email, 'wrong password').expect(401);
    const second = await login(email, 'wrong password').expect(429);
    expect(Number(second.headers['retry-after'])).to.be.within(BASE_SECONDS + 1, 2 * BASE_SECONDS);
    await endBlock(email);
    const ok = await login(email, PASSWORD).expect(200);
    expect(ok.body.user.email).to.equal(email);
  });

  it('a successful login resets the count: five more failures before the next block', async () => {
    const email = await newUser();
    for (let i = 0; i < 4; i++) await login(email, 'wrong password').expect(401);
    await login(email, PASSWORD).expect(200);
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    const blocked = await login(email, 'wrong password').expect(429);
    // Back at the first delay, not a doubled one.
    expect(Number(blocked.headers['retry-after'])).to.be.within(1, BASE_SECONDS);
  });

  it('does not lock the owner out: an address that signed in before still gets in with the right password', async () => {
    const email = await newUser();
    const home = freshAddress();
    await login(email, PASSWORD, home).expect(200);
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    await login(email, PASSWORD).expect(429);
    await login(email, PASSWORD, home).expect(200);
    // That success reset the account: new addresses get in again.
    await login(email, PASSWORD).expect(200);
  });

  it('throttles unknown e-mails alike, so the answers do not tell which accounts exist', async () => {
    const email = `nobody${Date.now()}@example.test`;
    for (let i = 0; i < 5; i++) await login(email, 'wrong password').expect(401);
    await login(email, 'wrong password').expect(429);
  });

  it('fails open while Redis is unreachable: attempts pass, nothing is counted', async () => {
    const redis = createRedis('redis://127.0.0.1:1', testLogger());
    const throttle = new LoginThrottle(
      redis,
      {
        keyPrefix: 'unused:',
        failures: 1,
        windowSeconds: 60,
        backoffBaseSeconds: 60,
        backoffMaxSeconds: 60,
        knownAddressDays: 1,
      },
      testLogger(),
    );
    try {
      for (let i = 0; i < 3; i++)
        expect(await throttle.attempt('a@example.test', '192.0.2.1')).to.deep.equal({ allowed: true });
      await throttle.succeeded('a@example.test', '192.0.2.1');
    } finally {
      redis.destroy();
    }
  });
});
