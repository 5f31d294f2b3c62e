import { expect } from 'chai';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createMailer } from '@fieldhouse/mail';
import { startPollsEmailWorker, startPollsWebhookWorker } from '@fieldhouse/polls';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import {
  eventually,
  expectPayloadMatchesAsyncApi,
  sleep,
  startSmtpSink,
  startWebhookReceiver,
  testLogger,
  type ReceivedWebhook,
  type SmtpSink,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { startStack, testWebhookVars, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;
interface Poll {
  id: string;
  sections: Array<{ id: string; options: Array<{ id: string }> }>;
}
interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const verify = (secret: string, r: ReceivedWebhook) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Payload;

const pollBody = (settings: object = {}) => ({
  title: 'Lunch',
  sections: [{ title: 'Main', options: [{ label: 'Soup' }, { label: 'Salad' }] }],
  settings,
});

describe('webhooks of area B through the gateway (real receivers, worker, RabbitMQ, MongoDB)', function () {
  this.timeout(60_000);
  const logger = testLogger('e2e-webhooks-b');
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let sink: SmtpSink;
  let mailer: ReturnType<typeof createMailer>;
  let mail: { close: () => Promise<void> };
  let worker: { close: () => Promise<void> };
  let alice: User;
  let bob: User;
  let mallory: User;
  const api = () => request(stack.gatewayUrl);
  const as = (u: User) => ({
    get: (p: string) => api().get(p).auth(u.token, { type: 'bearer' }),
    post: (p: string) => api().post(p).auth(u.token, { type: 'bearer' }),
    patch: (p: string) => api().patch(p).auth(u.token, { type: 'bearer' }),
    delete: (p: string) => api().delete(p).auth(u.token, { type: 'bearer' }),
  });
  const createPoll = async (settings: object = {}) =>
    (await as(alice).post('/api/polls').send(pollBody(settings)).expect(201)).body.data as Poll;
  const subscribe = async (poll: Poll, path: string, events: string[]) =>
    (
      await as(alice)
        .post(`/api/polls/${poll.id}/webhooks`)
        .send({ url: `${receiver.url}${path}`, events })
        .expect(201)
    ).body.data as { id: string; secret: string; poll_id: string; events: string[] };
  const choose = (poll: Poll, pick = 0) => ({ [poll.sections[0]!.id]: poll.sections[0]!.options[pick]!.id });

  before(async () => {
    stack = await startStack({ gatewayEnv: { RATE_LIMIT_IP: '100000', RATE_LIMIT_USER: '100000' } });
    receiver = await startWebhookReceiver();
    sink = await startSmtpSink();
    mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Polls <polls@example.test>');
    mail = await startPollsEmailWorker({ broker: stack.polls.broker, mailer, db: stack.polls.db, logger });
    worker = await startPollsWebhookWorker({
      broker: stack.polls.broker,
      db: stack.polls.db,
      logger,
      ...webhookWorkerSettings({
        ...testWebhookVars,
        WEBHOOK_RETRY_SCHEDULE: '200ms',
        WEBHOOK_DISABLE_AFTER: 1,
      }),
      pollIntervalMs: 100,
    });
    [alice, bob, mallory] = [
      await registerUser(stack.gatewayUrl, 'Alice Owner'),
      await registerUser(stack.gatewayUrl, 'Bob Voter'),
      await registerUser(stack.gatewayUrl, 'Mallory Outsider'),
    ];
  });
  after(async () => {
    await worker?.close();
    await mail?.close();
    mailer?.close();
    await sink?.close();
    await receiver?.close();
    await stack?.stop();
  });

  it('lets only the owner manage a poll’s webhooks: anonymous 401, others 403, unknown poll 404', async () => {
    const poll = await createPoll();
    const hooks = `/api/polls/${poll.id}/webhooks`;
    const body = { url: `${receiver.url}/x`, events: ['poll.closed'] };
    await api().post(hooks).send(body).expect(401);
    expect((await as(mallory).post(hooks).send(body).expect(403)).body.code).to.equal('forbidden');
    await as(mallory).get(hooks).expect(403);
    await as(alice).get('/api/polls/no-such-poll/webhooks').expect(404);
    const bad = await as(alice)
      .post(hooks)
      .send({ url: 'http://169.254.169.254/latest', events: ['poll.nope'] })
      .expect(422);
    expect(Object.keys(bad.body.errors)).to.include.members(['events.0']);
    const created = await subscribe(poll, '/x', ['poll.closed']);
    expect(created.secret).to.match(/^whsec_/);
    expect(created).to.include({ poll_id: poll.id });
    const listed = await as(alice).get(hooks).expect(200);
    expect(listed.body.data.map((w: { id: string }) => w.id)).to.deep.equal([created.id]);
    expect(listed.body.data[0]).to.not.have.property('secret');
    await as(mallory).get(`${hooks}/${created.id}/deliveries`).expect(403);
    await as(alice).delete(`${hooks}/${created.id}`).expect(204);
    await as(alice).get(`${hooks}/${created.id}`).expect(404);
  });

  it('sends poll.vote.counted without the voter on a public poll, and only after verification', async () => {
    const poll = await createPoll({ require_verification: true });
    const hook = await subscribe(poll, '/votes', ['poll.vote.counted']);
    const held = await api()
      .post(`/api/polls/${poll.id}/vote`)
      .send({ votes: choose(poll), voter_fingerprint: 'fp-webhook-1', voter_email: 'anon@example.test' })
      .expect(202);
    const code = held.body.data.verification_code as string;
    const otp = await sink.waitFor((m) => m.text.includes(code), 15_000);
    await sleep(500);
    expect(receiver.on('/votes')).to.have.length(0); // held for its password: not counted yet
    const password = /one-time password is (\d{6})/.exec(otp.text)![1]!;
    const counted = await api()
      .post(`/api/polls/${poll.id}/verify`)
      .send({ verification_code: code, password })
      .expect(201);
    const [got] = await eventually(async () =>
      receiver.on('/votes').length ? receiver.on('/votes') : undefined,
    );
    const payload = verify(hook.secret, got!);
    expect(payload.type).to.equal('poll.vote.counted');
    const asyncApi = (await api().get('/docs/polls.asyncapi.json').expect(200)).body as object;
    expectPayloadMatchesAsyncApi(asyncApi, payload.type, payload, got!.headers);
    expect(payload.data).to.deep.include({ poll_id: poll.id, verified: true, voter: null });
    expect(payload.data.vote).to.include({ id: counted.body.data.vote.id, seq: 1 });
    expect(payload.data.vote.option_ids).to.deep.equal([poll.sections[0]!.options[0]!.id]);
    expect(payload.data.links).to.deep.equal({
      poll: `/api/polls/${poll.id}`,
      results: `/api/polls/${poll.id}/results`,
    });
    expect(got!.body).to.not.match(/fp-webhook-1|anon@example\.test|voter_key/);
    expect(got!.headers['webhook-id']).to.equal(counted.body.data.vote.id);
  });

  it('names the signed-in voter on an authenticated poll; sends comments and the closing with its results', async () => {
    const poll = await createPoll({ access: 'authenticated', allow_comments: true });
    const hook = await subscribe(poll, '/all', ['poll.vote.counted', 'poll.comment.created', 'poll.closed']);
    await as(bob)
      .post(`/api/polls/${poll.id}/vote`)
      .send({ votes: choose(poll, 1) })
      .expect(201);
    const comment = await as(bob)
      .post(`/api/polls/${poll.id}/comment`)
      .send({ content: 'Salad, always.' })
      .expect(201);
    await as(alice).post(`/api/polls/${poll.id}/close`).expect(200);
    const got = await eventually(async () => {
      const all = receiver.on('/all').map((r) => verify(hook.secret, r));
      return all.length >= 3 ? all : undefined;
    });
    // Each body and its headers match the AsyncAPI document the gateway serves.
    const asyncApi = (await api().get('/docs/polls.asyncapi.json').expect(200)).body as object;
    got.forEach((p, i) => expectPayloadMatchesAsyncApi(asyncApi, p.type, p, receiver.on('/all')[i]!.headers));
    const byType = Object.fromEntries(got.map((p) => [p.type, p.data]));
    expect(byType['poll.vote.counted']).to.deep.include({
      verified: false,
      voter: { user_id: bob.id, name: bob.name },
    });
    expect(byType['poll.comment.created']!.comment).to.include({
      id: comment.body.data.id,
      content: 'Salad, always.',
      user_id: bob.id,
    });
    expect(byType['poll.closed']).to.deep.include({
      reason: 'closed_by_owner',
      total_votes: 1,
      results: { [poll.sections[0]!.options[0]!.id]: 0, [poll.sections[0]!.options[1]!.id]: 1 },
    });
    expect(byType['poll.closed']!.poll).to.include({ id: poll.id, title: 'Lunch' });
    // The log: three deliveries, each succeeded at the first attempt.
    const log = await as(alice).get(`/api/polls/${poll.id}/webhooks/${hook.id}/deliveries`).expect(200);
    expect(log.body.pagination).to.include({ total: 3 });
    expect(
      log.body.data.map((d: { status: string; attempts: number }) => [d.status, d.attempts]),
    ).to.deep.equal([
      ['succeeded', 1],
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    // Reopening and voting again after the webhook is turned off sends nothing more.
    await as(alice).patch(`/api/polls/${poll.id}/webhooks/${hook.id}`).send({ active: false }).expect(200);
    await as(alice).post(`/api/polls/${poll.id}/reopen`).expect(200);
    await as(mallory)
      .post(`/api/polls/${poll.id}/vote`)
      .send({ votes: choose(poll) })
      .expect(201);
    await sleep(800);
    expect(receiver.on('/all')).to.have.length(3);
    expect(
      await stack.polls.db.collection('webhook_messages').countDocuments({ 'scope.poll_id': poll.id }),
    ).to.equal(3);
  });

  it('retries, disables a failing webhook and e-mails the owner, then redelivers the failed once turned on', async () => {
    const poll = await createPoll();
    const hook = await subscribe(poll, '/down', ['poll.vote.counted']);
    receiver.answer('/down', 500);
    await api()
      .post(`/api/polls/${poll.id}/vote`)
      .send({ votes: choose(poll), voter_fingerprint: 'fp-webhook-down' })
      .expect(201);
    const notice = await sink.waitFor(
      (m) => m.envelope.to.includes(alice.email) && /Webhook disabled/.test(m.subject),
      15_000,
    );
    expect(notice.text).to.include(hook.id);
    const base = `/api/polls/${poll.id}/webhooks/${hook.id}`;
    expect((await as(alice).get(base).expect(200)).body.data).to.include({
      active: false,
      disabled_reason: 'failing',
    });
    const [failed] = (await as(alice).get(`${base}/deliveries?status=failed`).expect(200)).body.data;
    expect(failed).to.include({ status: 'failed', attempts: 2, response_status: 500 });
    receiver.answer('/down', 204);
    await as(alice).patch(base).send({ active: true }).expect(200);
    await as(alice)
      .post(`${base}/redeliver-failed`)
      .send({ since: new Date(Date.now() - 60_000).toISOString() })
      .expect(202);
    await eventually(async () => receiver.on('/down').length === 3);
    const ids = new Set(receiver.on('/down').map((r) => r.headers['webhook-id']));
    expect(ids.size).to.equal(1);
    const detail = await eventually(async () => {
      const d = (await as(alice).get(`${base}/deliveries/${failed.id}`).expect(200)).body.data;
      return d.status === 'succeeded' ? d : undefined;
    });
    expect(detail.attempt_log.map((a: { response_status: number }) => a.response_status)).to.deep.equal([
      500, 500, 204,
    ]);
  });
});
