import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Options } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { backingUrl } from '@fieldhouse/testkit';
import { FailOpenStore } from '../src/fail-open-store.ts';

type Client = ReturnType<typeof createClient>;

const WINDOW_MS = 60_000;

describe('gateway: fail-open rate-limit store around rate-limit-redis (real Redis)', () => {
  let client: Client;
  const prefix = `test.${randomBytes(3).toString('hex')}.fo:`;
  /** While true, every Redis command of the stores below fails as with Redis unreachable. */
  let down = false;
  let failures: unknown[];

  /** A login-style store of one replica, initialised as express-rate-limit would. */
  const store = () => {
    const s = new FailOpenStore({
      create: () =>
        new RedisStore({
          prefix,
          sendCommand: (...args: string[]) =>
            (down
              ? Promise.reject(new Error('The client is closed'))
              : client.sendCommand(args)) as Promise<never>,
        }),
      onFailure: (err) => failures.push(err),
    });
    s.init({ windowMs: WINDOW_MS } as Options);
    return s;
  };

  before(async () => {
    client = createClient({ url: await backingUrl('redis') });
    await client.connect();
  });
  beforeEach(() => {
    down = false;
    failures = [];
  });
  after(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(keys);
    await client.close();
  });

  it('counts exactly across replicas through the inner store', async () => {
    const [a, b] = [store(), store()];
    expect((await a.increment('k')).totalHits).to.equal(1);
    expect((await b.increment('k')).totalHits).to.equal(2);
    await a.decrement('k');
    expect((await b.get('k'))?.totalHits).to.equal(1);
    await b.resetKey('k');
    expect((await a.increment('k')).totalHits).to.equal(1);
    expect(failures).to.deep.equal([]);
  });

  it('lets hits pass while Redis is unreachable: each counts as the first of a fresh window', async () => {
    const s = store();
    await s.increment('down');
    down = true;
    const before = Date.now();
    const hit = await s.increment('down');
    expect(hit.totalHits).to.equal(1);
    expect(hit.resetTime!.getTime()).to.be.at.least(before + WINDOW_MS);
    expect(await s.get('down')).to.equal(undefined);
    await s.decrement('down');
    await s.resetKey('down');
    expect(failures).to.have.length(4);
  });

  it('counts again once Redis is back, from what Redis kept', async () => {
    const s = store();
    await s.increment('back');
    down = true;
    await s.increment('back');
    down = false;
    expect((await s.increment('back')).totalHits).to.equal(2);
  });

  it('recovers when Redis was unreachable at start (its scripts could not be loaded then)', async () => {
    down = true;
    const s = store();
    expect((await s.increment('late')).totalHits).to.equal(1);
    expect(failures).to.have.length(1);
    down = false;
    expect((await s.increment('late')).totalHits).to.equal(1);
    expect((await s.increment('late')).totalHits).to.equal(2);
    expect(Number(await client.get(`${prefix}late`))).to.equal(2);
  });
});
