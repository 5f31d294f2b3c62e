import { Agent, get, type ClientRequest, type IncomingMessage } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registry } from '@fieldhouse/http';
import { eventually, onServerSentEvents } from '@fieldhouse/testkit';
import { registerUser } from './support/users.ts';

/** The current value of a gauge of this process's registry (the e2e stack runs in-process). */
async function gauge(name: string): Promise<number> {
  return (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
}

/** A `results` event of the live results (the fields these tests read). */
interface ResultsEvent {
  total_votes: number;
  stats_hidden: boolean;
  results: Record<string, number>;
}

/**
 * Opens a live-results stream through the gateway; resolves once its headers arrived. A 200's
 * `results` events are collected as they come; any other answer's body is kept whole.
 */
function openStream(
  url: string,
  agent: Agent,
  token?: string,
): Promise<{
  res: IncomingMessage;
  req: ClientRequest;
  results: ResultsEvent[];
  body: () => string;
  ended: Promise<unknown>;
}> {
  return new Promise((resolve, reject) => {
    let body = '';
    const results: ResultsEvent[] = [];
    const req = get(url, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      if (res.statusCode === 200)
        onServerSentEvents(res, (e) => {
          if (e.event === 'results') results.push(JSON.parse(e.data) as ResultsEvent);
        });
      else res.setEncoding('utf8').on('data', (c: string) => (body += c));
      const ended = new Promise((r) => res.once('end', r));
      resolve({ res, req, results, body: () => body, ended });
    });
    req.on('error', reject);
  });
}

describe('gateway: live streams have their own connections and capped numbers (issue #14)', () => {
  let stack: TestStack;
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  before(async () => {
    stack = await startStack({
      gatewayEnv: { STREAMS_PER_ADDRESS: '300', STREAMS_PER_USER: '2', RATE_LIMIT_IP: '100000' },
    });
  });
  after(async () => {
    agent.destroy();
    await stack?.stop();
  });

  it('keeps answering ordinary requests while 300 streams from one address are open, and refuses the 301st', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const poll = (
      await request(stack.gatewayUrl)
        .post('/api/polls')
        .auth(alice.token, { type: 'bearer' })
        .send({ title: 'Streams', sections: [{ title: 'S', options: [{ label: 'A' }, { label: 'B' }] }] })
        .expect(201)
    ).body.data as { id: string };
    const url = `${stack.gatewayUrl}/api/polls/${poll.id}/results/stream`;
    const open = [];
    try {
      // Distinct fingerprints: 300 upstream streams (identical callers would share one).
      for (let i = 0; i < 300; i += 50) {
        open.push(
          ...(await Promise.all(
            Array.from({ length: 50 }, (_, j) =>
              openStream(`${url}?voter_fingerprint=viewer-${i + j}`, agent),
            ),
          )),
        );
      }
      expect(open.every((s) => s.res.statusCode === 200)).to.equal(true);
      // The old shared pool of 256 sockets would leave this waiting for the upstream timeout.
      const read = await request(stack.gatewayUrl).get(`/api/polls/${poll.id}/results`).timeout(5_000);
      expect(read.status).to.equal(200);
      const refused = await openStream(url, agent);
      expect(refused.res.statusCode).to.equal(429);
      expect(refused.res.headers['retry-after']).to.equal('10');
      await refused.ended;
      expect(JSON.parse(refused.body())).to.include({ status: 429, code: 'too_many_streams' });
      // A closed stream gives its place back.
      open.pop()!.req.destroy();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        const again = await openStream(url, agent);
        status = again.res.statusCode!;
        if (status === 200) open.push(again);
        else await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).to.equal(200);
    } finally {
      for (const s of open) s.req.destroy();
    }
  });

  it('caps the streams of one signed-in user (429 too_many_streams)', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const poll = (
      await request(stack.gatewayUrl)
        .post('/api/polls')
        .auth(alice.token, { type: 'bearer' })
        .send({ title: 'Mine', sections: [{ title: 'S', options: [{ label: 'A' }, { label: 'B' }] }] })
        .expect(201)
    ).body.data as { id: string };
    const url = `${stack.gatewayUrl}/api/polls/${poll.id}/results/stream`;
    const open = [await openStream(url, agent, alice.token), await openStream(url, agent, alice.token)];
    try {
      expect(open.map((s) => s.res.statusCode)).to.deep.equal([200, 200]);
      const third = await openStream(url, agent, alice.token);
      expect(third.res.statusCode).to.equal(429);
      // Anonymous streams from the same address are not this user's.
      const anonymous = await openStream(url, agent);
      open.push(anonymous);
      expect(anonymous.res.statusCode).to.equal(200);
    } finally {
      for (const s of open) s.req.destroy();
    }
  });

  it('feeds identical callers from one upstream stream, and never shares one between users', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const bob = await registerUser(stack.gatewayUrl);
    const poll = (
      await request(stack.gatewayUrl)
        .post('/api/polls')
        .auth(alice.token, { type: 'bearer' })
        .send({
          title: 'Shared',
          sections: [{ title: 'S', options: [{ label: 'A' }, { label: 'B' }] }],
          settings: { show_stats_public: false, max_votes_per_voter: 5 },
        })
        .expect(201)
    ).body.data as { id: string; sections: Array<{ id: string; options: Array<{ id: string }> }> };
    const url = `${stack.gatewayUrl}/api/polls/${poll.id}/results/stream`;
    const upstreamsBefore = await gauge('gateway_streams_upstream');
    const anonymous = await Promise.all(Array.from({ length: 20 }, () => openStream(url, agent)));
    const ownerStream = await openStream(url, agent, alice.token);
    const otherStream = await openStream(url, agent, bob.token);
    const all = [...anonymous, ownerStream, otherStream];
    try {
      // 20 anonymous callers from one address share one upstream; each user has their own.
      await eventually(async () => (await gauge('gateway_streams_upstream')) - upstreamsBefore === 3, 20_000);
      await request(stack.gatewayUrl)
        .post(`/api/polls/${poll.id}/vote`)
        .send({
          votes: { [poll.sections[0]!.id]: poll.sections[0]!.options[1]!.id },
          voter_fingerprint: 'fp-shared-1',
        })
        .expect(201);
      await eventually(async () => all.every((s) => s.results.at(-1)?.total_votes === 1), 20_000);
      // A late joiner gets the newest snapshot at once.
      const late = await openStream(url, agent);
      all.push(late);
      await eventually(async () => late.results.at(-1)?.total_votes === 1, 20_000);
      // The owner sees the counts; the other user, who did not vote, sees none.
      expect(ownerStream.results.at(-1)!.stats_hidden).to.equal(false);
      expect(ownerStream.results.at(-1)!.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
      expect(otherStream.results.at(-1)!.stats_hidden).to.equal(true);
      expect(otherStream.results.at(-1)!.results).to.deep.equal({});
    } finally {
      for (const s of all) s.req.destroy();
    }
    await eventually(async () => (await gauge('gateway_streams_upstream')) === upstreamsBefore, 20_000);
  });
});
