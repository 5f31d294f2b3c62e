import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createClient } from 'redis';
import { backingUrl, eventually, testLogger } from '@fieldhouse/testkit';
import { LiveResults } from '../src/live/live-results.ts';

/**
 * The spacing of vote notices. Long enough that "at once" (before the interval ends) and "at the
 * end of the interval" stay apart by a second on a loaded machine, where one Redis round trip
 * can take far longer than a quiet machine's millisecond.
 */
const INTERVAL_MS = 1_000;

describe('LiveResults (Redis pub/sub): vote notices spaced out per poll', () => {
  let redis: ReturnType<typeof createClient>;
  let live: LiveResults;
  before(async () => {
    redis = createClient({ url: await backingUrl('redis') });
    await redis.connect();
    live = new LiveResults(redis, `t:${randomBytes(4).toString('hex')}:`, testLogger('polls'), INTERVAL_MS);
  });
  after(async () => {
    await live?.close();
    await redis?.close();
  });

  it('announces the first vote at once, a burst once more at the end, and other polls apart', async () => {
    const heard: Array<{ poll: string; at: number }> = [];
    let start = 0;
    const off = [
      await live.subscribe('p1', () => heard.push({ poll: 'p1', at: Date.now() - start })),
      await live.subscribe('p2', () => heard.push({ poll: 'p2', at: Date.now() - start })),
    ];
    start = Date.now(); // from the first vote (subscribing may take a while under load)
    for (let i = 0; i < 50; i++) live.voteCounted('p1');
    live.voteCounted('p2');
    await eventually(async () => heard.filter((h) => h.poll === 'p1').length >= 2, 20_000);
    // Nothing more may come: past the end of the next interval, when a stray notice would be sent.
    await new Promise((r) => setTimeout(r, 1.5 * INTERVAL_MS));
    const p1 = heard.filter((h) => h.poll === 'p1');
    expect(p1).to.have.length(2); // the first vote, then the other 49 together
    expect(p1[0]!.at).to.be.below(INTERVAL_MS); // not held for the interval
    expect(p1[1]!.at).to.be.at.least(INTERVAL_MS - 10); // held until its end
    expect(heard.filter((h) => h.poll === 'p2')).to.have.length(1);

    live.voteCounted('p1'); // the interval is over: at once again
    await eventually(async () => heard.filter((h) => h.poll === 'p1').length === 3, 20_000);
    await Promise.all(off.map((u) => u()));
  });

  it('close and delete notices are never delayed', async () => {
    // Votes spaced a minute apart: a notice held for the interval could not come within 20 s.
    const spaced = new LiveResults(
      redis,
      `t:${randomBytes(4).toString('hex')}:`,
      testLogger('polls'),
      60_000,
    );
    try {
      let n = 0;
      const off = await spaced.subscribe('p3', () => n++);
      spaced.voteCounted('p3');
      await spaced.publish('p3');
      await spaced.publish('p3');
      await eventually(async () => n === 3, 20_000);
      await off();
    } finally {
      await spaced.close();
    }
  });
});
