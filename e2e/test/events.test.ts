import { expect } from 'chai';
import request from 'supertest';
import { createMailer } from '@fieldhouse/mail';
import { Broker, OutboxRelay, startUserEventsConsumer } from '@fieldhouse/messaging';
import { applyUserEvent, createEventsContext, startEventsEmailWorker } from '@fieldhouse/events';
import { eventually, startSmtpSink, testLogger, type SmtpSink } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

describe('events through the gateway: events, invites, e-mail, authorisation', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let broker: Broker;
  let relay: OutboxRelay;
  const closers: Array<() => Promise<unknown>> = [];
  let alice: User;
  let mallory: User;
  const api = () => request(stack.gatewayUrl);

  before(async () => {
    stack = await startStack();
    sink = await startSmtpSink();
    const logger = testLogger('events-e2e');
    broker = new Broker({
      url: stack.config.AMQP_URL,
      logger,
      name: 'events-e2e',
      prefix: stack.config.AMQP_PREFIX,
    });
    relay = new OutboxRelay({ knex: stack.eventsDb, table: 'outbox', broker, logger, intervalMs: 100 });
    relay.start();
    const mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Fieldhouse <no-reply@example.test>');
    const worker = await startEventsEmailWorker({
      broker,
      db: stack.eventsDb,
      mailer,
      logger,
      retryDelaysMs: [200],
    });
    const ctx = createEventsContext({ db: stack.eventsDb, logger });
    const users = await startUserEventsConsumer({
      broker,
      logger,
      queue: 'events.users',
      apply: async (id, user) => {
        await applyUserEvent(ctx, id, user);
      },
    });
    closers.push(
      () => users.close(),
      () => worker.close(),
      () => relay.stop(),
      () => broker.close(),
      async () => mailer.close(),
    );
    alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    mallory = await registerUser(stack.gatewayUrl, 'Mallory Outsider');
  });
  after(async () => {
    for (const close of closers) await close();
    await sink?.close();
    await stack?.stop();
  });

  it('needs a signed-in user (401 problem)', async () => {
    const res = await api().get('/api/events').expect(401);
    expect(res.type).to.equal('application/problem+json');
  });

  it('creates, lists and shows events with the exact shapes of spec 4.3', async () => {
    const created = await api()
      .post('/api/events')
      .auth(alice.token, { type: 'bearer' })
      .send({
        name: 'Forum',
        description: 'Annual forum',
        start_date: '2030-09-10T09:00:00',
        location: 'Bordeaux',
      })
      .expect(201);
    const list = await api().get('/api/events').auth(alice.token, { type: 'bearer' }).expect(200);
    expect(list.body).to.deep.include({
      id: created.body.id,
      name: 'Forum',
      start_date: '2030-09-10T09:00:00',
      location: 'Bordeaux',
    });
    const detail = await api()
      .get(`/api/events/${created.body.id}`)
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(detail.body).to.deep.equal({
      id: created.body.id,
      name: 'Forum',
      description: 'Annual forum',
      start_date: '2030-09-10T09:00:00',
      end_date: null,
      location: 'Bordeaux',
    });
    await api().get(`/api/events/${created.body.id}`).auth(mallory.token, { type: 'bearer' }).expect(404);
    const others = await api().get('/api/events').auth(mallory.token, { type: 'bearer' }).expect(200);
    expect(others.body).to.deep.equal([]);
  });

  it('sends the invitation e-mail with the QR code through RabbitMQ to the SMTP sink', async () => {
    const ev = await api()
      .post('/api/events')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'Soirée', start_date: '2030-10-01T20:00', location: 'Lille' })
      .expect(201);
    const inv = await api()
      .post(`/api/events/${ev.body.id}/invites`)
      .auth(alice.token, { type: 'bearer' })
      .send({ nom: 'Inès Invitée', email: 'ines@example.test', type_invite: 'vip' })
      .expect(201);
    expect(inv.body).to.have.keys('id', 'nom', 'code_unique');
    const mail = await sink.waitFor((m) => m.envelope.to.includes('ines@example.test'), 15_000);
    expect(mail.subject).to.equal('Your invitation: Soirée');
    expect(mail.text).to.contain(inv.body.code_unique);
    expect(mail.attachments).to.have.length(1);
    expect(mail.attachments[0]).to.include({
      filename: `qr-${inv.body.code_unique}.png`,
      contentType: 'image/png',
    });
    expect(mail.attachments[0]!.size).to.be.greaterThan(200);
    await eventually(async () => Number((await stack.eventsDb('outbox').count({ n: '*' }))[0]!.n) === 0);
  });

  it('staff by e-mail from the users projection (user events): staff see the event, outsiders get 404', async () => {
    const bob = await registerUser(stack.gatewayUrl, 'Bob Staff');
    const ev = await api()
      .post('/api/events')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'Expo', start_date: '2030-11-01T10:00', location: 'Nice' })
      .expect(201);
    const id = ev.body.id as string;
    const inv = await api()
      .post(`/api/events/${id}/invites`)
      .auth(alice.token, { type: 'bearer' })
      .send({ nom: 'Guest', email: 'guest@example.test' })
      .expect(201);
    // Sam never called the events service: the gateway's user.created event made him known.
    await eventually(async () => (await stack.eventsDb('users').where({ id: bob.id }).first()) !== undefined);
    await api()
      .post(`/api/events/${id}/staff`)
      .auth(alice.token, { type: 'bearer' })
      .send({ email: bob.email })
      .expect(201);
    for (const path of [
      `/api/events/${id}`,
      `/api/events/${id}/invites`,
      `/api/events/${id}/stats`,
      `/api/events/${id}/invites/${inv.body.id}`,
    ]) {
      await api().get(path).auth(bob.token, { type: 'bearer' }).expect(200);
      const res = await api().get(path).auth(mallory.token, { type: 'bearer' }).expect(404);
      expect(res.type).to.equal('application/problem+json');
    }
    await api()
      .post(`/api/events/${id}/checkin`)
      .auth(mallory.token, { type: 'bearer' })
      .send({ code_unique: inv.body.code_unique })
      .expect(404);
    await api()
      .put(`/api/events/${id}/invites/${inv.body.id}/presence`)
      .auth(mallory.token, { type: 'bearer' })
      .send({ presence: true, scanne_par: 'x' })
      .expect(404);
    await api()
      .post(`/api/events/${id}/invites`)
      .auth(bob.token, { type: 'bearer' })
      .send({ nom: 'X', email: 'x@example.test' })
      .expect(403);
    await api()
      .post(`/api/events/${id}/checkin`)
      .auth(bob.token, { type: 'bearer' })
      .send({ code_unique: inv.body.code_unique })
      .expect(200);
  });

  it('serves QR codes as PNG and SVG and imports CSV with bad rows', async () => {
    const ev = await api()
      .post('/api/events')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'Salon', start_date: '2030-12-01T10:00', location: 'Metz' })
      .expect(201);
    const id = ev.body.id as string;
    const imported = await api()
      .post(`/api/events/${id}/invites/import`)
      .auth(alice.token, { type: 'bearer' })
      .set('content-type', 'text/csv')
      .send(
        'nom,email,type_invite\nAlain,alain@example.test,presse\nBad,bad-mail,\n,empty@example.test,\nAlain bis,ALAIN@example.test,\n',
      )
      .expect(200);
    expect(imported.body.created).to.equal(1);
    expect(imported.body.failed).to.equal(3);
    expect(
      imported.body.results.map((r: { row: number; status: string }) => [r.row, r.status]),
    ).to.deep.equal([
      [2, 'created'],
      [3, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
    ]);
    const inviteId = imported.body.results[0].id as string;
    const png = await api()
      .get(`/api/events/${id}/invites/${inviteId}/qr.png`)
      .auth(alice.token, { type: 'bearer' })
      .buffer(true)
      .expect(200);
    expect(png.headers['content-type']).to.equal('image/png');
    const svg = await api()
      .get(`/api/events/${id}/invites/${inviteId}/qr.svg`)
      .auth(alice.token, { type: 'bearer' })
      .buffer(true)
      .expect(200);
    expect(svg.headers['content-type']).to.match(/^image\/svg\+xml/);
    await sink.waitFor((m) => m.envelope.to.includes('alain@example.test'), 15_000);
  });

  it('publishes the OpenAPI document of area C under the gateway /docs', async () => {
    const doc = await api().get('/docs/events.json').expect(200);
    expect(doc.body.openapi).to.equal('3.1.0');
    for (const path of [
      '/api/events',
      '/api/events/{event_id}',
      '/api/events/{event_id}/invites',
      '/api/events/{event_id}/invites/{invite_id}/presence',
      '/api/events/{event_id}/checkin',
      '/api/events/{event_id}/checkin/batch',
      '/api/events/{event_id}/stats',
    ])
      expect(doc.body.paths).to.have.property(path);
  });
});
