import { expect } from 'chai';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { listenTo } from '@fieldhouse/db';
import { startEventsWebhookWorker } from '@fieldhouse/events';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import {
  backingUrl,
  eventually,
  expectPayloadMatchesAsyncApi,
  randomPrefix,
  sleep,
  startNodeProcess,
  startWebhookReceiver,
  testLogger,
  type ReceivedWebhook,
  type TestProcess,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { startStack, testWebhookVars, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

const verify = (secret: string, r: ReceivedWebhook) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

describe('webhooks of area C through the gateway (real receivers, worker, RabbitMQ)', function () {
  this.timeout(60_000);
  const logger = testLogger('e2e-webhooks-c');
  let stack: TestStack;
  let broker: Broker;
  let relay: OutboxRelay;
  let notices: { close: () => Promise<void> };
  let worker: { close: () => Promise<void> } | undefined;
  let receiver: WebhookReceiver;
  let alice: User;
  let bob: User;
  let mallory: User;
  let eventId: string;
  const api = () => request(stack.gatewayUrl);
  const as = (u: User) => ({
    get: (p: string) => api().get(p).auth(u.token, { type: 'bearer' }),
    post: (p: string) => api().post(p).auth(u.token, { type: 'bearer' }),
    patch: (p: string) => api().patch(p).auth(u.token, { type: 'bearer' }),
    put: (p: string) => api().put(p).auth(u.token, { type: 'bearer' }),
    delete: (p: string) => api().delete(p).auth(u.token, { type: 'bearer' }),
  });
  const hooks = () => `/api/events/${eventId}/webhooks`;
  // Every payload received must match the AsyncAPI document the gateway serves (fetched once).
  let asyncApi: object | undefined;
  const matchesAsyncApi = async (r: ReceivedWebhook) => {
    asyncApi ??= (await api().get('/docs/events.asyncapi.json').expect(200)).body as object;
    const payload = JSON.parse(r.body) as { type: string };
    expectPayloadMatchesAsyncApi(asyncApi, payload.type, payload, r.headers);
  };
  const startWorker = async () =>
    (worker = await startEventsWebhookWorker({
      broker,
      db: stack.eventsDb,
      logger,
      ...webhookWorkerSettings({
        ...testWebhookVars,
        WEBHOOK_RETRY_SCHEDULE: '200ms,200ms',
        WEBHOOK_TIMEOUT_MS: 10_000, // never reached by the test receivers, however loaded the machine
      }),
      pollIntervalMs: 100,
    }));

  before(async () => {
    stack = await startStack();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'e2e-wh-c',
      prefix: randomPrefix('e2e-wh-c'),
    });
    relay = new OutboxRelay({ knex: stack.eventsDb, table: 'outbox', broker, logger, intervalMs: 1000 });
    relay.start();
    notices = listenTo(stack.databaseUrls.events, 'outbox', () => relay.kick(), logger);
    receiver = await startWebhookReceiver();
    await startWorker();
    [alice, bob, mallory] = [
      await registerUser(stack.gatewayUrl, 'Alice Owner'),
      await registerUser(stack.gatewayUrl, 'Bob Staff'),
      await registerUser(stack.gatewayUrl, 'Mallory Outsider'),
    ];
    eventId = (
      await as(alice)
        .post('/api/events')
        .send({ name: 'Webhook Gala', start_date: '2030-07-14T21:00:00', location: 'Lyon' })
        .expect(201)
    ).body.id;
    // The users projection, as the gateway's user events fill it (e2e/test/events.test.ts covers that path).
    await stack
      .eventsDb('users')
      .insert({ id: bob.id, name: bob.name, email: bob.email, updated_at: new Date() });
    await as(alice).post(`/api/events/${eventId}/staff`).send({ email: bob.email }).expect(201);
  });
  after(async () => {
    await worker?.close();
    await notices?.close();
    await relay?.stop();
    await broker?.close();
    await receiver?.close();
    await stack?.stop();
  });

  it('lets only the owner manage webhooks: staff 403, anyone else 404, and checks URL and kinds', async () => {
    const body = { url: `${receiver.url}/x`, events: ['invite.created'] };
    await as(bob).post(hooks()).send(body).expect(403);
    await as(bob).get(hooks()).expect(403);
    await as(mallory).post(hooks()).send(body).expect(404);
    await as(mallory).get(hooks()).expect(404);
    const bad = [
      { url: 'ftp://example.test/', events: ['invite.created'] },
      { url: 'http://169.254.169.254/latest', events: ['invite.created'] },
      { url: 'http://[::ffff:a9fe:a9fe]/', events: ['invite.created'] },
      { url: `${receiver.url}/x`, events: ['poll.closed'] },
      { url: `${receiver.url}/x`, events: [] },
    ];
    for (const b of bad) {
      const res = await as(alice).post(hooks()).send(b).expect(422);
      expect(Object.keys(res.body.errors)).to.have.length(1);
    }
    expect((await as(alice).get(hooks()).expect(200)).body).to.deep.equal([]);
  });

  it('delivers invite.created, invite.checked_in and invite.presence_changed, signed, with frozen payloads', async () => {
    const created = await as(alice)
      .post(hooks())
      .send({
        url: `${receiver.url}/c`,
        events: ['invite.created', 'invite.checked_in', 'invite.presence_changed'],
      })
      .expect(201);
    const { secret, id: hookId } = created.body as { secret: string; id: string };
    expect(secret).to.match(/^whsec_/);
    expect(created.body).to.include({ event_id: eventId, active: true, url: `${receiver.url}/c` });
    expect((await as(alice).get(`${hooks()}/${hookId}`).expect(200)).body).to.not.have.property('secret');

    const invite = (
      await as(alice)
        .post(`/api/events/${eventId}/invites`)
        .send({ nom: 'Ada', email: 'ada@example.test', type_invite: 'vip' })
        .expect(201)
    ).body as { id: string; code_unique: string };
    await as(alice)
      .post(`/api/events/${eventId}/checkin`)
      .send({ code_unique: invite.code_unique })
      .expect(200);
    await as(alice)
      .put(`/api/events/${eventId}/invites/${invite.id}/presence`)
      .send({ presence: false, scanne_par: 'Desk' })
      .expect(200);

    const got = await eventually(async () => (receiver.on('/c').length >= 3 ? receiver.on('/c') : undefined));
    const payloads = got.map((r) => verify(secret, r));
    for (const r of got) await matchesAsyncApi(r);
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p]));
    expect(Object.keys(byType).sort()).to.deep.equal([
      'invite.checked_in',
      'invite.created',
      'invite.presence_changed',
    ]);
    expect(byType['invite.created']!.data.invite).to.include({
      id: invite.id,
      event_id: eventId,
      nom: 'Ada',
      type_invite: 'vip',
      code_unique: invite.code_unique,
      presence: false,
    });
    expect(byType['invite.created']!.data.links.invite).to.equal(
      `/api/events/${eventId}/invites/${invite.id}`,
    );
    expect(byType['invite.checked_in']!.data).to.deep.include({ presence: true, previous: false });
    expect(byType['invite.checked_in']!.data.by).to.deep.equal({
      user_id: alice.id,
      scanner_device_id: null,
    });
    expect(byType['invite.presence_changed']!.data).to.include({
      presence: false,
      previous: true,
      scanne_par: 'Desk',
    });

    // The log lists them; a later edit never changes what is sent again.
    const list = await as(alice).get(`${hooks()}/${hookId}/deliveries?event=invite.created`).expect(200);
    expect(list.body.pagination).to.include({ total: 1 });
    const delivery = list.body.data[0] as {
      id: string;
      message_id: string;
      status: string;
      attempts: number;
    };
    expect(delivery).to.include({ status: 'succeeded', attempts: 1 });
    await as(alice)
      .patch(`/api/events/${eventId}/invites/${invite.id}`)
      .send({ nom: 'Ada Lovelace' })
      .expect(200);
    const first = receiver.on('/c').find((r) => verify(secret, r).type === 'invite.created')!;
    await as(alice).post(`${hooks()}/${hookId}/deliveries/${delivery.id}/redeliver`).expect(202);
    const again = await eventually(
      async () => receiver.on('/c').filter((r) => r.headers['webhook-id'] === delivery.message_id)[1],
    );
    expect(again.body).to.equal(first.body);
    await matchesAsyncApi(again);
    expect(first.headers['webhook-id']).to.equal(delivery.message_id);
    const detail = await eventually(async () => {
      const d = (await as(alice).get(`${hooks()}/${hookId}/deliveries/${delivery.id}`).expect(200)).body;
      return d.attempts === 2 && d.status === 'succeeded' ? d : undefined;
    });
    expect(detail.attempt_log).to.have.length(2);
    expect(detail.payload.data.invite.nom).to.equal('Ada');
  });

  it('retries a failing receiver with the same webhook-id, logs the attempts, and redelivers the failed', async () => {
    const { body } = await as(alice)
      .post(hooks())
      .send({ url: `${receiver.url}/flaky`, events: ['invite.created'] })
      .expect(201);
    receiver.answer('/flaky', 500, 502, 500, 200);
    await as(alice)
      .post(`/api/events/${eventId}/invites`)
      .send({ nom: 'Bob', email: 'bob@example.test', type_invite: 'standard' })
      .expect(201);
    const failed = await eventually(async () => {
      const page = (await as(alice).get(`${hooks()}/${body.id}/deliveries?status=failed`).expect(200)).body;
      return page.data[0];
    });
    expect(failed).to.include({ attempts: 3, response_status: 500 });
    const got = receiver.on('/flaky');
    expect(got).to.have.length(3);
    for (const r of got) await matchesAsyncApi(r);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).to.deep.equal(new Set([failed.message_id]));
    const since = new Date(Date.now() - 60_000).toISOString();
    const redone = await as(alice).post(`${hooks()}/${body.id}/redeliver-failed`).send({ since }).expect(202);
    expect(redone.body).to.deep.equal({ count: 1 });
    await eventually(async () => {
      const d = (await as(alice).get(`${hooks()}/${body.id}/deliveries/${failed.id}`).expect(200)).body;
      return d.status === 'succeeded' && d.attempts === 4;
    });
  });

  it('rotates the secret: both sign during the overlap; ping reaches a disabled webhook', async () => {
    const { body } = await as(alice)
      .post(hooks())
      .send({ url: `${receiver.url}/rotate`, events: ['invite.created'], active: false })
      .expect(201);
    expect(body).to.include({ active: false, disabled_reason: 'by_owner' });
    const rotated = await as(alice).post(`${hooks()}/${body.id}/rotate-secret`).expect(200);
    expect(rotated.body.secret).to.not.equal(body.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).to.be.greaterThan(Date.now() + 23 * 3600_000);
    const ping = await as(alice).post(`${hooks()}/${body.id}/ping`).expect(202);
    expect(ping.body).to.include({ event: 'ping', status: 'pending' });
    const got = await eventually(async () => receiver.on('/rotate')[0]);
    await matchesAsyncApi(got);
    expect(verify(rotated.body.secret, got).type).to.equal('ping');
    expect(verify(body.secret, got).data).to.deep.equal({ subscription_id: body.id });
    const patched = await as(alice).patch(`${hooks()}/${body.id}`).send({ active: true }).expect(200);
    expect(patched.body).to.include({ active: true, disabled_reason: null });
    await as(alice).delete(`${hooks()}/${body.id}`).expect(204);
    await as(alice).get(`${hooks()}/${body.id}`).expect(404);
  });

  it('loses no delivery when the worker process is killed with SIGKILL mid-retry', async () => {
    await worker?.close();
    worker = undefined;
    const { body } = await as(alice)
      .post(hooks())
      .send({ url: `${receiver.url}/kill`, events: ['invite.created'] })
      .expect(201);
    receiver.answer('/kill', 503, 200);
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: stack.databaseUrls.events,
      AMQP_URL: await backingUrl('amqp'),
      AMQP_PREFIX: broker.prefix,
      SMTP_URL: 'smtp://127.0.0.1:9',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_RETRY_SCHEDULE: '3s',
      METRICS_PORT: '0',
    };
    const main = new URL('../../services/events/src/workers/main.ts', import.meta.url).pathname;
    let proc: TestProcess = startNodeProcess(main, env);
    try {
      await as(alice)
        .post(`/api/events/${eventId}/invites`)
        .send({ nom: 'Kim', email: 'kim@example.test', type_invite: 'standard' })
        .expect(201);
      await eventually(async () => receiver.on('/kill').length === 1, 20_000);
      // Mid-retry: the 503 is recorded and the retry scheduled (a kill during the attempt itself
      // is retried once its lease lapses, 35 s later by default: longer than this test waits).
      await eventually(async () => {
        const p = (await as(alice).get(`${hooks()}/${body.id}/deliveries`).expect(200)).body;
        return p.data[0]?.attempts === 1 && p.data[0]?.response_status === 503;
      }, 20_000);
      proc.child.kill('SIGKILL');
      await proc.stop();
      await sleep(3500);
      expect(receiver.on('/kill')).to.have.length(1);
      proc = startNodeProcess(main, env);
      await eventually(async () => receiver.on('/kill').length === 2, 20_000);
      const got = receiver.on('/kill');
      expect(got[1]!.headers['webhook-id']).to.equal(got[0]!.headers['webhook-id']);
      for (const r of got) await matchesAsyncApi(r);
      const page = await eventually(async () => {
        const p = (await as(alice).get(`${hooks()}/${body.id}/deliveries`).expect(200)).body;
        return p.data[0]?.status === 'succeeded' ? p : undefined;
      });
      expect(page.data[0]).to.include({ attempts: 2, response_status: 200 });
    } finally {
      await proc.stop();
      await startWorker();
    }
  });
});
