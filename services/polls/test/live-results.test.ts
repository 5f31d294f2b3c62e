import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createClient } from 'redis';
import { backingUrl, eventually, testLogger } from '@fieldhouse/testkit';
import { LiveResults } from '../src/live/live-results.ts';

describe('LiveResults (Redis pub/sub): vote notices spaced out per poll', () => {
  let redis: ReturnType<typeof createClient>;
  let live: LiveResults;
  before(async () => {
    redis = createClient({ url: await backingUrl('redis') });
    await redis.connect();
    live = new LiveResults(redis, `t:${randomBytes(4).toString('hex')}:`, testLogger('polls'), 200);
  });
  after(async () => {
    await live?.close();
    await redis?.close();
  });

  it('announces the first vote at once, a burst once more at the end, and other polls apart', async () => {
    const heard: Array<{ poll: string; at: number }> = [];
    const start = Date.now();
    const off = [
      await live.subscribe('p1', () => heard.push({ poll: 'p1', at: Date.now() - start })),
      await live.subscribe('p2', () => heard.push({ poll: 'p2', at: Date.now() - start })),
    ];
    for (let i = 0; i < 50; i++) live.voteCounted('p1');
    live.voteCounted('p2');
    await eventually(async () => heard.filter((h) => h.poll === 'p1').length >= 2, 2_000);
    await new Promise((r) => setTimeout(r, 500)); // nothing more may come
    const p1 = heard.filter((h) => h.poll === 'p1');
    expect(p1).to.have.length(2); // the first vote, then the other 49 together
    expect(p1[0]!.at).to.be.below(150);
    expect(p1[1]!.at).to.be.at.least(190);
    expect(heard.filter((h) => h.poll === 'p2')).to.have.length(1);

    live.voteCounted('p1'); // the interval is over: at once again
    await eventually(async () => heard.filter((h) => h.poll === 'p1').length === 3, 2_000);
    await Promise.all(off.map((u) => u()));
  });

  it('close and delete notices are never delayed', async () => {
    let n = 0;
    const off = await live.subscribe('p3', () => n++);
    live.voteCounted('p3');
    await live.publish('p3');
    await live.publish('p3');
    await eventually(async () => n === 3, 1_000);
    await off();
  });
});
