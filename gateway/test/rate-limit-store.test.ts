import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Options } from 'express-rate-limit';
import { createClient } from 'redis';
import { backingUrl, eventually } from '@fieldhouse/testkit';
import { WriteBehindRedisStore, type SendCommand } from '../src/rate-limit-store.ts';

type Client = ReturnType<typeof createClient>;

/** An hour: a window aligned on the epoch that ended in the middle of a test would reset its counts. */
const WINDOW_MS = 3_600_000;

/** A store of one "replica", on its own Redis connection, initialised as express-rate-limit would. */
function replica(send: SendCommand, prefix: string, syncMs: number, failures: unknown[] = []) {
  const store = new WriteBehindRedisStore({
    sendCommand: send,
    prefix,
    syncMs,
    onFailure: (err) => failures.push(err),
  });
  store.init({ windowMs: WINDOW_MS } as Options);
  return store;
}

describe('gateway: write-behind rate-limit store (real Redis)', () => {
  let url: string;
  const clients: Client[] = [];
  const prefix = `test.${randomBytes(3).toString('hex')}.rl:`;

  const connect = async () => {
    const c = createClient({ url, disableOfflineQueue: true });
    await c.connect();
    clients.push(c);
    return (args: string[]) => c.sendCommand(args);
  };

  before(async () => {
    url = await backingUrl('redis');
  });
  after(async () => {
    const keys = await clients[0]!.keys(`${prefix}*`);
    if (keys.length) await clients[0]!.del(keys);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('answers from local counts at once and writes them to Redis on the next sync', async () => {
    const send = await connect();
    const store = replica(send, prefix, 10_000);
    const window = Math.floor(Date.now() / WINDOW_MS);
    const hits = [];
    for (let i = 0; i < 5; i++) hits.push(await store.increment('a'));
    expect(hits.map((h) => h.totalHits)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(hits[0]!.resetTime!.getTime()).to.equal((window + 1) * WINDOW_MS);
    expect(await send(['GET', `${prefix}a:${window}`])).to.equal(null);

    await store.sync();
    expect(await send(['GET', `${prefix}a:${window}`])).to.equal('5');
    const ttl = Number(await send(['PTTL', `${prefix}a:${window}`]));
    expect(ttl)
      .to.be.greaterThan(WINDOW_MS)
      .and.at.most(2 * WINDOW_MS);
    expect((await store.increment('a')).totalHits).to.equal(6);
    await store.shutdown();
    expect(await send(['GET', `${prefix}a:${window}`])).to.equal('6');
  });

  it("sees another replica's hits after a sync: the limit is shared", async () => {
    // Syncs by hand (the 10 s timer never fires during the test).
    const [a, b] = [replica(await connect(), prefix, 10_000), replica(await connect(), prefix, 10_000)];
    for (let i = 0; i < 7; i++) await a.increment('shared');
    await a.sync();
    expect((await b.increment('shared')).totalHits).to.equal(1); // b has not synced yet
    await b.sync(); // b learns a's 7
    expect(b.get('shared')?.totalHits).to.equal(8);
    expect((await b.increment('shared')).totalHits).to.equal(9);
    expect((await a.increment('shared')).totalHits).to.equal(8); // a answers from what it knows
    await b.sync();
    await a.sync();
    expect(a.get('shared')?.totalHits).to.equal(10); // and learns the rest at its next sync
    await Promise.all([a.shutdown(), b.shutdown()]);
  });

  it('counts the hits whose write to Redis has not answered yet', async () => {
    const send = await connect();
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    // INCRBY answers only once the test lets it: a sync still on its way when the next hit comes.
    const slow: SendCommand = async (args) => {
      if (args[0] === 'INCRBY') await held;
      return send(args);
    };
    const store = replica(slow, prefix, 10_000);
    for (let i = 0; i < 3; i++) await store.increment('slow');
    const syncing = store.sync();
    expect((await store.increment('slow')).totalHits).to.equal(4);
    expect(store.get('slow')?.totalHits).to.equal(4);
    answer();
    await syncing;
    expect(store.get('slow')?.totalHits).to.equal(4);
    expect((await store.increment('slow')).totalHits).to.equal(5);
    await store.shutdown();
  });

  it('syncs on its own every syncMs', async () => {
    const send = await connect();
    const store = replica(send, prefix, 20);
    const window = Math.floor(Date.now() / WINDOW_MS);
    for (let i = 0; i < 3; i++) await store.increment('timer');
    await eventually(async () => String(await send(['GET', `${prefix}timer:${window}`])) === '3');
    await store.shutdown();
  });

  it('with syncMs 0 counts exactly across replicas, even when they race', async () => {
    const [a, b] = [replica(await connect(), prefix, 0), replica(await connect(), prefix, 0)];
    const totals = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).increment('exact')),
    );
    expect(totals.map((t) => t.totalHits).sort((x, y) => x - y)).to.deep.equal(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('decrement and resetKey take hits back', async () => {
    const send = await connect();
    const store = replica(send, prefix, 10_000);
    const window = Math.floor(Date.now() / WINDOW_MS);
    await store.increment('d');
    await store.increment('d');
    store.decrement('d');
    expect(store.get('d')?.totalHits).to.equal(1);
    await store.sync();
    expect(await send(['GET', `${prefix}d:${window}`])).to.equal('1');
    await store.resetKey('d');
    expect(store.get('d')).to.equal(undefined);
    expect(await send(['GET', `${prefix}d:${window}`])).to.equal(null);
    await store.shutdown();
  });

  it('keeps counting per replica while Redis is unreachable and writes the backlog when it is back', async () => {
    let down = true;
    const send = await connect();
    const failures: unknown[] = [];
    const flaky: SendCommand = (args) =>
      down ? Promise.reject(new Error('The client is closed')) : send(args);
    const store = replica(flaky, prefix, 10_000, failures);
    const window = Math.floor(Date.now() / WINDOW_MS);
    for (let i = 0; i < 3; i++) await store.increment('down');
    await store.sync();
    expect(failures).to.have.length.greaterThan(0);
    expect((await store.increment('down')).totalHits).to.equal(4); // still enforced locally

    down = false;
    await store.sync();
    expect(await send(['GET', `${prefix}down:${window}`])).to.equal('4');
    await store.shutdown();
  });

  it('sets the expiry of a key with its first write only', async () => {
    const send = await connect();
    const sent: string[] = [];
    const store = replica(
      (args) => {
        sent.push(args[0]!);
        return send(args);
      },
      prefix,
      0,
    );
    for (let i = 0; i < 3; i++) await store.increment('once');
    expect(sent).to.deep.equal(['INCRBY', 'PEXPIREAT', 'INCRBY', 'INCRBY']);
    const window = Math.floor(Date.now() / WINDOW_MS);
    expect(Number(await send(['PTTL', `${prefix}once:${window}`]))).to.be.greaterThan(WINDOW_MS);
    await store.shutdown();
  });
});
