import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createClient } from 'redis';
import { backingUrl, eventually, testLogger } from '@fieldhouse/testkit';
import { TokenCache } from '../src/identity/token-cache.ts';
import type { TokenWithUser } from '../src/identity/tokens-repo.ts';
import type { RedisClient } from '../src/redis.ts';

const row = (id: number): TokenWithUser => ({
  id,
  token_hash: 'h'.repeat(64),
  expires_at: null,
  last_used_at: null,
  user_id: 7,
  user_name: 'Ada',
  user_email: 'ada@example.test',
  user_email_verified: false,
});

describe('gateway: token cache revocation across replicas (real Redis)', () => {
  let url: string;
  const clients: RedisClient[] = [];
  const caches: TokenCache[] = [];
  const prefix = `test.${randomBytes(3).toString('hex')}:`;

  /** One gateway replica's cache, on its own Redis connection; resolves once it is live. */
  const replica = async (ackTimeoutMs = 2_000) => {
    const redis = createClient({ url });
    await redis.connect();
    clients.push(redis);
    const cache = new TokenCache(redis, testLogger('gateway'), 10_000, prefix, 50_000, ackTimeoutMs);
    caches.push(cache);
    await eventually(async () => cache.live);
    return cache;
  };

  before(async () => {
    url = await backingUrl('redis');
  });
  after(async () => {
    for (const c of caches) await c.close();
    for (const c of clients) await c.close();
  });

  it('has evicted the token on every replica by the time revoke() resolves, on every round', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    for (let id = 1; id <= 50; id++) {
      for (const cache of [a, b, c]) cache.set(row(id));
      expect(b.get(id)?.id).to.equal(id);
      await (id % 2 ? a : c).revoke(id);
      // No waiting: the very next lookup on any replica misses.
      expect([a.get(id), b.get(id), c.get(id)]).to.deep.equal([undefined, undefined, undefined]);
    }
  });

  it('does not cache again a token revoked while a lookup of it was under way', async () => {
    const [a, b] = [await replica(), await replica()];
    const stale = row(1001); // read from PostgreSQL just before the revocation committed
    await a.revoke(1001);
    b.set(stale);
    a.set(stale);
    expect(b.get(1001)).to.equal(undefined);
    expect(a.get(1001)).to.equal(undefined);
    b.set(row(1002)); // other tokens are cached as before
    expect(b.get(1002)?.id).to.equal(1002);
  });

  it('resolves after its timeout when a subscriber never acknowledges, and still evicts the others', async () => {
    const a = await replica(300);
    const b = await replica(300);
    // A subscriber of the channel that never acknowledges (a stuck replica).
    const mute = createClient({ url });
    await mute.connect();
    clients.push(mute as RedisClient);
    await mute.subscribe(`${prefix}identity:token-revoked`, () => undefined);
    b.set(row(2001));
    const t0 = performance.now();
    await a.revoke(2001);
    const waited = performance.now() - t0;
    expect(waited).to.be.at.least(250);
    expect(b.get(2001)).to.equal(undefined);
    await mute.unsubscribe();
  });
});
