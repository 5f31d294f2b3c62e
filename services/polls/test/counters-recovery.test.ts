import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { eventually, onServerSentEvents } from '@fieldhouse/testkit';
import request from 'supertest';
import { Counters } from '../src/data/counters.ts';
import { newId } from '../src/domain/ids.ts';
import { hourOf } from '../src/domain/ids.ts';
import { reconcileVotes } from '../src/domain/reconcile-votes.ts';
import { voteDeltas } from '../src/domain/voting.ts';
import { recountFrom } from '../src/data/recount.ts';
import type { VoteDoc } from '../src/domain/types.ts';
import {
  alice,
  bob,
  carol,
  crowd,
  dave,
  erin,
  frank,
  grace,
  heidi,
  pollBody,
  startHarness,
  votesFor,
  type PollsHarness,
} from './harness.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A redis-server of this test's own (so it can be shut down without saving). */
async function ownRedis(port: number): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
      probe.on('exit', (code) => resolve(code === 0));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

const results = async (h: PollsHarness, pollId: string) =>
  (await request(h.app).get(`/api/polls/${pollId}/results`).set('Authorization', h.auth(alice)).expect(200))
    .body.data;

describe('polls counters: crash recovery, one rebuild, idempotent votes, Redis away (real MongoDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness({ reconcileIntervalMs: 0 });
  });
  after(() => h.stop());

  it('counts a vote whose writer died between its MongoDB insert and its counters, exactly once', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 5 }));
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll, [0, 0, 0]) })
      .expect(201);
    // The first step of countVote only: reserved and inserted, then the process "dies".
    const voteId = newId();
    await h.context.counters.reserve(poll.id, voteId);
    const now = new Date();
    const orphan: VoteDoc = {
      _id: voteId,
      poll_id: poll.id,
      voter_key: 'u:3',
      seq: 1,
      choices: votesFor(poll, [1, 1, 1]),
      option_ids: poll.sections.map((s) => s.options[1]!.id),
      voter_name: null,
      time_spent: null,
      user_id: 3,
      hour: hourOf(now),
      created_at: now.toISOString(),
    };
    await h.context.c.votes.insertOne(orphan);
    expect((await results(h, poll.id)).total_votes).to.equal(1); // the drift the issue saw

    const first = await reconcileVotes(h.context, 0);
    expect(first.settled).to.be.at.least(1);
    const after = await results(h, poll.id);
    expect(after.total_votes).to.equal(2);
    expect(after.unique_voters).to.equal(2);
    expect(after.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
    // A second pass, and a pass by another replica, change nothing.
    const second = await reconcileVotes(h.context, 0);
    expect(second.settled).to.equal(0);
    expect((await results(h, poll.id)).total_votes).to.equal(2);
    // Identical to a recount from MongoDB.
    const recount = await recountFrom(h.context.c)(poll.id);
    expect(recount.total).to.equal(2);
  });

  it('keeps a young reservation whose vote is not in MongoDB, and goes past it to the next', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 5 }));
    const absentId = newId();
    const absent = await h.context.counters.reserve(poll.id, absentId); // its insert never came
    const presentId = newId();
    await h.context.counters.reserve(poll.id, presentId);
    const now = new Date();
    await h.context.c.votes.insertOne({
      _id: presentId,
      poll_id: poll.id,
      voter_key: 'u:77',
      seq: 1,
      choices: votesFor(poll),
      option_ids: poll.sections.map((s) => s.options[0]!.id),
      voter_name: null,
      time_spent: null,
      user_id: 77,
      hour: hourOf(now),
      created_at: now.toISOString(),
    });
    const report = await reconcileVotes(h.context, 0);
    expect(report.settled).to.be.at.least(1);
    expect((await results(h, poll.id)).total_votes).to.equal(1);
    // The absent vote's reservation stays (its writer may still insert) until it is 10 minutes old.
    expect(await h.redis.zScore(h.context.counters.uncountedKey, absent.marker)).to.be.a('number');
    await h.context.counters.release(absent);
  });

  it('settles a reservation once, whether the writer or the reconciler gets there first', async () => {
    const poll = await h.createPoll(alice);
    const voteId = newId();
    const reservation = await h.context.counters.reserve(poll.id, voteId);
    const deltas = voteDeltas({ seq: 1, hour: hourOf(new Date()), option_ids: ['x'], time_spent: null });
    // The reconciler settles first (the writer was slow), then the writer's own apply.
    expect(await h.context.counters.settle(reservation, deltas)).to.equal(true);
    const late = await h.context.counters.apply(poll.id, reservation, deltas, ['total']);
    expect(late?.total).to.equal(1);
    expect(await h.redis.hGet(h.context.counters.key(poll.id), 'o:x')).to.equal('1');
    expect(await h.redis.zScore(h.context.counters.uncountedKey, reservation.marker)).to.equal(null);
  });

  it('drops the counters when they were rebuilt since the reservation, so the next read is exact', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 5 }));
    const voteId = newId();
    await h.context.counters.reserve(poll.id, voteId);
    const now = new Date();
    await h.context.c.votes.insertOne({
      _id: voteId,
      poll_id: poll.id,
      voter_key: 'u:9',
      seq: 1,
      choices: votesFor(poll),
      option_ids: poll.sections.map((s) => s.options[0]!.id),
      voter_name: null,
      time_spent: null,
      user_id: 9,
      hour: hourOf(now),
      created_at: now.toISOString(),
    });
    // Redis lost the hash and a rebuild (which may or may not have seen the vote) replaced it.
    await h.redis.del(h.context.counters.key(poll.id));
    await h.context.counters.read(poll.id);
    await reconcileVotes(h.context, 0);
    expect((await results(h, poll.id)).total_votes).to.equal(1);
  });

  it('rebuilds lost counters once for concurrent reads and votes, and answers the votes', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 50 }));
    for (let i = 0; i < 5; i++)
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(crowd(i)))
        .send({ votes: votesFor(poll, [i % 3]) })
        .expect(201);
    let recounts = 0;
    const recount = recountFrom(h.context.c);
    const counters = new Counters(h.redis, h.prefix, async (id) => {
      recounts++;
      return recount(id);
    });
    const saved = h.context.counters;
    h.context.counters = counters;
    try {
      await h.redis.del(counters.key(poll.id));
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () =>
          request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(alice)),
        ),
        ...Array.from({ length: 10 }, (_, i) =>
          request(h.app)
            .post(`/api/polls/${poll.id}/vote`)
            .set('Authorization', h.auth(crowd(i, 1)))
            .send({ votes: votesFor(poll, [1]) }),
        ),
      ]);
      expect(answers.map((a) => a.status).sort()).to.deep.equal([
        ...Array(10).fill(200),
        ...Array(10).fill(201),
      ]);
      expect(recounts).to.equal(1);
      const final = await results(h, poll.id);
      expect(final.total_votes).to.equal(15);
      expect(final.results[poll.sections[0]!.options[1]!.id]).to.equal(12);
    } finally {
      h.context.counters = saved;
    }
  });

  it('answers a retried vote with the same Idempotency-Key with the original vote, not the vote limit', async () => {
    const poll = await h.createPoll(alice);
    const votes = votesFor(poll, [2, 1, 0]);
    const first = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(carol))
      .set('Idempotency-Key', 'vote-40-a')
      .send({ votes })
      .expect(201);
    const retry = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(carol))
      .set('Idempotency-Key', 'vote-40-a')
      .send({ votes })
      .expect(201);
    expect(retry.headers['idempotent-replayed']).to.equal('true');
    expect(retry.body.data.vote.id).to.equal(first.body.data.vote.id);
    expect(retry.body.data.total_votes).to.equal(1);
    expect(retry.body.data.remaining_votes).to.equal(0);
    // Another voter's same key is another vote; a new key is the vote limit; other choices 422.
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(dave))
      .set('Idempotency-Key', 'vote-40-a')
      .send({ votes })
      .expect(201);
    const limit = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(carol))
      .set('Idempotency-Key', 'vote-40-b')
      .send({ votes })
      .expect(422);
    expect(limit.body.code).to.equal('vote_limit_reached');
    const reused = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(carol))
      .set('Idempotency-Key', 'vote-40-a')
      .send({ votes: votesFor(poll, [0, 0, 0]) })
      .expect(422);
    expect(reused.body.code).to.equal('idempotency_key_reused');
    const bad = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(erin))
      .set('Idempotency-Key', 'ö')
      .send({ votes })
      .expect(400);
    expect(bad.body.errors).to.have.property('Idempotency-Key');
    expect(await h.context.c.votes.countDocuments({ poll_id: poll.id })).to.equal(2);
  });
});

describe('polls with Redis shut down without saving and restarted (own redis-server)', () => {
  let port: number;
  let server: ChildProcess;
  let h: PollsHarness;
  before(async () => {
    port = await freePort();
    server = await ownRedis(port);
    h = await startHarness({ reconcileIntervalMs: 0 }, { redisUrl: `redis://127.0.0.1:${port}` });
  });
  after(async () => {
    await h.stop();
    server.kill('SIGKILL');
  });

  it('answers 503 with Retry-After while Redis is away, then counts votes exactly once it is back', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 10 }));
    for (let i = 0; i < 3; i++)
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(crowd(i, 2)))
        .send({ votes: votesFor(poll) })
        .expect(201);
    const exited = new Promise((r) => server.once('exit', r));
    await h.redis.sendCommand(['SHUTDOWN', 'NOSAVE']).catch(() => undefined);
    await exited;
    const away = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(frank))
      .send({ votes: votesFor(poll) });
    expect(away.status).to.equal(503);
    expect(away.headers['retry-after']).to.equal('2');
    expect(away.body.code).to.equal('store_unavailable');
    const read = await request(h.app)
      .get(`/api/polls/${poll.id}/results`)
      .set('Authorization', h.auth(alice));
    expect(read.status).to.equal(503);

    server = await ownRedis(port);
    const back = Date.now();
    let status = 0;
    while (status !== 201 && Date.now() - back < 20_000) {
      status = (
        await request(h.app)
          .post(`/api/polls/${poll.id}/vote`)
          .set('Authorization', h.auth(grace))
          .set('Idempotency-Key', 'after-redis')
          .send({ votes: votesFor(poll) })
      ).status;
      if (status !== 201) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).to.equal(201);
    const final = await results(h, poll.id);
    const inMongo = await h.context.c.votes.countDocuments({ poll_id: poll.id });
    expect(final.total_votes).to.equal(inMongo);
    expect(inMongo).to.equal(4);
  });

  it('keeps live streams going across a restart of Redis (the subscription comes back)', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 10 }));
    const httpServer = h.app.listen(0, '127.0.0.1');
    await new Promise((r) => httpServer.once('listening', r));
    const { port: appPort } = httpServer.address() as AddressInfo;
    const totals: number[] = [];
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      get(
        `http://127.0.0.1:${appPort}/api/polls/${poll.id}/results/stream`,
        { headers: { authorization: h.auth(alice) } },
        (res) => {
          onServerSentEvents(res, (e) => {
            if (e.event === 'results')
              totals.push((JSON.parse(e.data) as { total_votes: number }).total_votes);
          });
          resolve(res);
        },
      ).on('error', reject);
    });
    try {
      await eventually(async () => totals.length >= 1, 20_000);
      const exited = new Promise((r) => server.once('exit', r));
      await h.redis.sendCommand(['SHUTDOWN', 'NOSAVE']).catch(() => undefined);
      await exited;
      server = await ownRedis(port);
      await eventually(
        async () =>
          (
            await request(h.app)
              .post(`/api/polls/${poll.id}/vote`)
              .set('Authorization', h.auth(heidi))
              .send({ votes: votesFor(poll) })
          ).status === 201,
        5_000,
      );
      const inMongo = await h.context.c.votes.countDocuments({ poll_id: poll.id });
      await eventually(async () => totals.at(-1) === inMongo, 20_000);
    } finally {
      stream.destroy();
      httpServer.closeAllConnections();
      await new Promise((r) => httpServer.close(r));
    }
  });
});
