import { get, type IncomingMessage } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { createClient } from 'redis';
import { createMailer } from '@fieldhouse/mail';
import { startPollsEmailWorker } from '@fieldhouse/polls';
import {
  eventually,
  onServerSentEvents,
  startSmtpSink,
  testLogger,
  type SmtpSink,
} from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;
interface Poll {
  id: string;
  sections: Array<{ id: string; options: Array<{ id: string }> }>;
}

const pollBody = (settings: object = {}) => ({
  title: 'Best framework',
  sections: [
    { title: 'Backend', options: [{ label: 'Express' }, { label: 'Fastify' }] },
    { title: 'Frontend', options: [{ label: 'Vue' }, { label: 'React' }, { label: 'Svelte' }] },
    { title: 'Database', options: [{ label: 'PostgreSQL' }, { label: 'MongoDB' }] },
  ],
  settings,
});
const votesFor = (poll: Poll, pick = 0) =>
  Object.fromEntries(poll.sections.map((s) => [s.id, s.options[pick]!.id]));

describe('polls through the gateway (e2e)', () => {
  let stack: TestStack;
  let alice: User;
  let bob: User;
  let sink: SmtpSink;
  let worker: { close: () => Promise<void> };
  let mailer: ReturnType<typeof createMailer>;

  before(async () => {
    stack = await startStack({ gatewayEnv: { RATE_LIMIT_IP: '100000', RATE_LIMIT_USER: '100000' } });
    alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    bob = await registerUser(stack.gatewayUrl, 'Bob Voter');
    sink = await startSmtpSink();
    mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Polls <polls@example.test>');
    worker = await startPollsEmailWorker({
      broker: stack.polls.broker,
      mailer,
      db: stack.polls.db,
      logger: testLogger('polls-worker'),
    });
  });
  after(async () => {
    await worker?.close();
    mailer?.close();
    await sink?.close();
    await stack?.stop();
  });

  const gw = () => request(stack.gatewayUrl);
  const createPoll = async (settings: object = {}) =>
    (await gw().post('/api/polls').auth(alice.token, { type: 'bearer' }).send(pollBody(settings)).expect(201))
      .body.data as Poll;
  const vote = (poll: Poll, body: object, token?: string) => {
    const r = gw().post(`/api/polls/${poll.id}/vote`);
    return (token ? r.auth(token, { type: 'bearer' }) : r).send(body);
  };

  it('counts one of many identical concurrent votes, answering the rest with the vote limit', async () => {
    const poll = await createPoll();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => vote(poll, { votes: votesFor(poll) }, bob.token)),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, ...Array(9).fill(422)]);
    const results = await gw().get(`/api/polls/${poll.id}/results`).expect(200);
    expect(results.body.data.total_votes).to.equal(1);
    expect(await stack.polls.db.collection('votes').countDocuments({ poll_id: poll.id })).to.equal(1);
  });

  it('enforces max_votes_per_voter for anonymous fingerprints (remaining_votes, then 422)', async () => {
    const poll = await createPoll({ max_votes_per_voter: 2 });
    const body = { votes: votesFor(poll), voter_fingerprint: 'fp-e2e-limit' };
    expect((await vote(poll, body).expect(201)).body.data.remaining_votes).to.equal(1);
    expect((await vote(poll, body).expect(201)).body.data.remaining_votes).to.equal(0);
    const limit = await vote(poll, body).expect(422);
    expect(limit.body).to.include({ code: 'vote_limit_reached' });
    expect(limit.headers['content-type']).to.match(/application\/problem\+json/);
  });

  it('rebuilds lost Redis counters from MongoDB with identical results', async () => {
    const poll = await createPoll();
    for (let i = 0; i < 6; i++)
      await vote(poll, {
        votes: votesFor(poll, i % 2),
        voter_fingerprint: `fp-rebuild-${i}`,
        time_spent: i,
      }).expect(201);
    const before = (await gw().get(`/api/polls/${poll.id}/results`).auth(alice.token, { type: 'bearer' }))
      .body.data;
    const r = createClient({ url: stack.config.REDIS_URL });
    await r.connect();
    const deleted = await r.del(`polls:c:${poll.id}`);
    await r.close();
    expect(deleted).to.equal(1);
    const after = (await gw().get(`/api/polls/${poll.id}/results`).auth(alice.token, { type: 'bearer' })).body
      .data;
    expect(after).to.deep.equal(before);
    expect(after.total_votes).to.equal(6);
  });

  it('holds a vote for a one-time password sent by e-mail; wrong passwords count down, then lock', async () => {
    const poll = await createPoll({ require_verification: true });
    const held = await vote(poll, { votes: votesFor(poll) }, bob.token).expect(202);
    expect(held.body.data).to.include({ requires_verification: true });
    const code = held.body.data.verification_code as string;
    expect(code).to.be.a('string');
    const again = await vote(poll, { votes: votesFor(poll) }, bob.token).expect(403);
    expect(again.body.message).to.match(/one-time password is required/);
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes(bob.email) && m.text.includes(code),
      15_000,
    );
    const password = /one-time password is (\d{6})/.exec(mail.text)![1]!;
    const wrong = password === '000000' ? '111111' : '000000';
    const verify = (pw: string) =>
      gw().post(`/api/polls/${poll.id}/verify`).send({ verification_code: code, password: pw });
    const first = await verify(wrong).expect(422);
    expect(first.body).to.include({ code: 'otp_invalid', attempts_left: 4 });
    for (let i = 3; i >= 1; i--) expect((await verify(wrong).expect(422)).body.attempts_left).to.equal(i);
    expect((await verify(wrong).expect(422)).body.code).to.equal('otp_locked');
    expect((await verify(password).expect(422)).body.code).to.equal('otp_locked');
    await vote(poll, { votes: votesFor(poll) }, bob.token).expect(403);
    expect((await gw().get(`/api/polls/${poll.id}/results`)).body.data.total_votes).to.equal(0);
  });

  it('counts a verified vote and refuses an expired password', async () => {
    const poll = await createPoll({ require_verification: true });
    const anon = {
      votes: votesFor(poll, 1),
      voter_fingerprint: 'fp-otp-1',
      voter_email: 'anon1@example.test',
    };
    const held = await vote(poll, anon).expect(202);
    const code = held.body.data.verification_code as string;
    const mail = await sink.waitFor((m) => m.text.includes(code), 15_000);
    const password = /one-time password is (\d{6})/.exec(mail.text)![1]!;
    const ok = await gw()
      .post(`/api/polls/${poll.id}/verify`)
      .send({ verification_code: code, password })
      .expect(201);
    expect(ok.body.data).to.include({ requires_verification: false, total_votes: 1, remaining_votes: 0 });
    expect(ok.body.data.vote.status).to.equal('counted');

    const other = { ...anon, voter_fingerprint: 'fp-otp-2', voter_email: 'anon2@example.test' };
    const held2 = await vote(poll, other).expect(202);
    const code2 = held2.body.data.verification_code as string;
    const mail2 = await sink.waitFor((m) => m.text.includes(code2), 15_000);
    const password2 = /one-time password is (\d{6})/.exec(mail2.text)![1]!;
    await stack.polls.db
      .collection('pending_votes')
      .updateOne({ code: code2 }, { $set: { expires_at: new Date(Date.now() - 1000).toISOString() } });
    const expired = await gw()
      .post(`/api/polls/${poll.id}/verify`)
      .send({ verification_code: code2, password: password2 })
      .expect(422);
    expect(expired.body.code).to.equal('otp_expired');
    expect((await vote(poll, other).expect(202)).body.data.verification_code).to.not.equal(code2);
  });

  it('shows full statistics to the owner only when show_stats_public is false', async () => {
    const poll = await createPoll({ show_stats_public: false });
    await vote(poll, { votes: votesFor(poll) }, bob.token).expect(201);
    await vote(poll, { votes: votesFor(poll, 1), voter_fingerprint: 'fp-hidden' }).expect(201);
    const mine = (await gw().get(`/api/polls/${poll.id}/results`).auth(bob.token, { type: 'bearer' })).body
      .data;
    expect(mine).to.include({ stats_hidden: true, show_stats_public: false });
    expect(mine.results).to.deep.equal(
      Object.fromEntries(Object.values(votesFor(poll)).map((id) => [id, 1])),
    );
    const owners = (await gw().get(`/api/polls/${poll.id}/results`).auth(alice.token, { type: 'bearer' }))
      .body.data;
    expect(owners.stats_hidden).to.equal(false);
    expect(owners.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
    expect(owners.analytics.top_options).to.have.length(3);
  });

  it('replaces a reaction and moves the counts', async () => {
    const poll = await createPoll();
    const react = (t: string) =>
      gw().post(`/api/polls/${poll.id}/react`).auth(bob.token, { type: 'bearer' }).send({ reaction_type: t });
    await react('wow').expect(201);
    const moved = await react('clap').expect(200);
    expect(moved.body.data.previous_reaction_type).to.equal('wow');
    const results = (await gw().get(`/api/polls/${poll.id}/results`)).body.data;
    expect(results.reactions_summary).to.include({ wow: 0, clap: 1 });
    expect(results.reactions_total).to.equal(1);
    await react('boo').expect(422);
  });

  it('answers unchanged results with the same ETag (304 to If-None-Match) and a vote at the next read', async () => {
    const poll = await createPoll();
    const results = () => gw().get(`/api/polls/${poll.id}/results`).expect(200);
    await results();
    const first = await results();
    const again = await results();
    expect(again.headers.etag).to.be.a('string').and.equal(first.headers.etag);
    expect(again.text).to.equal(first.text);
    await gw()
      .get(`/api/polls/${poll.id}/results`)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    await gw()
      .post(`/api/polls/${poll.id}/vote`)
      .auth(bob.token, { type: 'bearer' })
      .send({ votes: votesFor(poll, 1) })
      .expect(201);
    const after = await gw()
      .get(`/api/polls/${poll.id}/results`)
      .set('If-None-Match', first.headers.etag as string)
      .expect(200);
    expect(after.headers.etag).to.not.equal(first.headers.etag);
    expect(after.body.data.total_votes).to.equal(1);
    expect(after.body.data.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
  });

  it('threads comments and lets the owner delete one', async () => {
    const poll = await createPoll();
    const post = (body: object) =>
      gw().post(`/api/polls/${poll.id}/comment`).auth(bob.token, { type: 'bearer' }).send(body);
    const root = (await post({ content: 'Top', parent_id: null }).expect(201)).body.data;
    await post({ content: 'Reply', parent_id: root.id }).expect(201);
    await post({ content: 'Orphan', parent_id: 'no-such-comment' }).expect(422);
    const list = (await gw().get(`/api/polls/${poll.id}/comments`).expect(200)).body;
    expect(list.data[0]).to.include({ content: 'Top' });
    expect(list.data[0].replies[0]).to.include({ content: 'Reply', parent_id: root.id });
    await gw()
      .delete(`/api/polls/${poll.id}/comments/${root.id}`)
      .auth(alice.token, { type: 'bearer' })
      .expect(204);
    expect((await gw().get(`/api/polls/${poll.id}/results`)).body.data.comments_total).to.equal(0);
  });

  it('streams live results as Server-Sent Events through the gateway on each counted vote, until the poll is deleted', async () => {
    const poll = await createPoll();
    const events: Array<{ total_votes: number }> = [];
    let deleted = false;
    let ended = false;
    let res: IncomingMessage | undefined;
    await new Promise<void>((resolve, reject) => {
      const req = get(`${stack.gatewayUrl}/api/polls/${poll.id}/results/stream`, (r) => {
        res = r;
        expect(r.statusCode).to.equal(200);
        expect(r.headers['content-type']).to.match(/^text\/event-stream/);
        onServerSentEvents(r, (e) => {
          if (e.event === 'results') events.push(JSON.parse(e.data) as { total_votes: number });
          if (e.event === 'deleted') deleted = true;
        });
        r.on('end', () => (ended = true));
        resolve();
      });
      req.on('error', reject);
    });
    const until = (n: number) => eventually(async () => events.length >= n, 20_000);
    try {
      await until(1);
      expect(events[0]!.total_votes).to.equal(0);
      await vote(poll, { votes: votesFor(poll), voter_fingerprint: 'fp-sse-1' }).expect(201);
      await until(2);
      expect(events.at(-1)!.total_votes).to.equal(1);
      await vote(poll, { votes: votesFor(poll), voter_fingerprint: 'fp-sse-2' }).expect(201);
      await until(3);
      expect(events.at(-1)!.total_votes).to.equal(2);
      await gw().delete(`/api/polls/${poll.id}`).auth(alice.token, { type: 'bearer' }).expect(204);
      await eventually(async () => deleted && ended, 20_000);
    } finally {
      res?.destroy();
    }
  });
});
