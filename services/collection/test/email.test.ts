import { expect } from 'chai';
import { createMailer, type Mailer } from '@fieldhouse/mail';
import { Broker, inTransactionWith, OutboxRelay } from '@fieldhouse/messaging';
import {
  backingUrl,
  randomPrefix,
  sleep,
  startSmtpSink,
  testLogger,
  type SmtpSink,
} from '@fieldhouse/testkit';
import { upsertUser } from '../src/data/users.ts';
import { noticeDisabledWebhook } from '../src/domain/webhooks.ts';
import { startCollectionEmailWorker } from '../src/workers/email.ts';
import { body, cast, makeForm, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: e-mail notifications (outbox, RabbitMQ, SMTP sink)', () => {
  // alice owns the form's workspace; erin owns another; frank is a user the notices may address.
  const { alice, erin, frank } = cast;
  const logger = testLogger('collection-mail');
  let h: Harness;
  let sink: SmtpSink;
  let broker: Broker;
  let relay: OutboxRelay;
  let form: Form;
  const workers: Array<{ close: () => Promise<void> }> = [];
  const mailers: Mailer[] = [];
  const retryDelaysMs = [30, 30, 30];

  before(async () => {
    h = await startHarness();
    sink = await startSmtpSink();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'collection-mail-test',
      prefix: randomPrefix('coll-mail'),
    });
    relay = new OutboxRelay({ knex: h.db, table: 'outbox', broker, logger, intervalMs: 50 });
    form = await makeForm(h, alice, {
      notify_on_submission: true,
      notification_emails: ['boss@example.test', 'deputy@example.test'],
    });
  });
  after(async () => {
    for (const w of workers) await w.close();
    for (const m of mailers) m.close();
    await relay?.stop();
    await broker?.close();
    await sink?.close();
    await h?.close();
  });

  it('sends one e-mail per submission to notification_emails, even when the job is delivered twice', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Fieldhouse <no-reply@example.test>');
    mailers.push(mailer);
    // Every worker of this file declares the same retry queues (their TTLs must not differ).
    workers.push(await startCollectionEmailWorker({ broker, db: h.db, mailer, logger, retryDelaysMs }));
    const s = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions`)
      .send(body(form))
      .expect(201);
    const [job] = await h.db('outbox').select('message');
    await relay.drain();
    // the same envelope again, as after a relay crash between publish and delete
    await broker.publish('collection', job.message);
    const got = await sink.waitFor((m) => m.text.includes(`#${s.body.data.id}`));
    expect(got.subject).to.equal('New submission to P');
    expect([...got.envelope.to].sort()).to.deep.equal(['boss@example.test', 'deputy@example.test']);
    await sleep(300);
    expect(sink.messages().filter((m) => m.text.includes(`#${s.body.data.id}`))).to.have.length(1);
    const done = await h.db('processed_messages').where({ consumer: 'collection.email' });
    expect(done.map((r) => r.message_id)).to.include(job.message.id);
  });

  it('retries a mail whose SMTP send fails, then delivers it once', async () => {
    for (const w of workers.splice(0)) await w.close();
    const real = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'no-reply@example.test');
    mailers.push(real);
    let failures = 2;
    let attempts = 0;
    const flaky: Mailer = {
      send: async (email, id) => {
        attempts++;
        if (failures-- > 0) throw new Error('SMTP 451 try again later');
        await real.send(email, id);
      },
      close: () => real.close(),
    };
    workers.push(
      await startCollectionEmailWorker({
        broker,
        db: h.db,
        mailer: flaky,
        logger,
        retryDelaysMs: [30, 30, 30],
      }),
    );
    const s = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions`)
      .send(body(form))
      .expect(201);
    await relay.drain();
    await sink.waitFor((m) => m.text.includes(`#${s.body.data.id}`));
    expect(attempts).to.equal(3);
    await sleep(300);
    expect(sink.messages().filter((m) => m.text.includes(`#${s.body.data.id}`))).to.have.length(1);
  });

  it("writes in a known recipient's language and time zone, else English and UTC, with a link to the submission", async () => {
    // Frank, French in Paris (as the gateway's user events project them), and an address no user has.
    await upsertUser(h.db, {
      id: frank.id,
      name: frank.name,
      email: 'Frank@Example.test',
      language: 'fr',
      time_zone: 'Europe/Paris',
      updated_at: new Date(),
    });
    const f = await makeForm(h, alice, {
      notify_on_submission: true,
      notification_emails: [frank.email, 'outsider@example.test'],
    });
    const s = await h.as(alice).post(`/api/v1/projects/${f.projectId}/submissions`).send(body(f)).expect(201);
    await relay.drain();
    const id = s.body.data.id as number;
    const createdAt = new Date(s.body.data.created_at as string);
    const link = `http://127.0.0.1:8080/projects/${f.projectId}/submissions?submission=${id}`;
    const hhmm = (zone: string) =>
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(
        createdAt,
      );

    const fr = await sink.waitFor((m) => m.text.includes(`n° ${id}`));
    expect([...fr.envelope.to]).to.deep.equal([frank.email]);
    expect(fr.subject).to.equal('Nouvel envoi pour P');
    expect(fr.text).to.contain('a été reçu pour le projet « P »').and.contain(hhmm('Europe/Paris'));
    expect(fr.text).to.contain(`L’ouvrir dans Fieldhouse : ${link}`);
    expect(fr.html).to.contain(`href="${link.replaceAll('&', '&amp;')}"`);

    const en = await sink.waitFor((m) => m.text.includes(`#${id},`));
    expect([...en.envelope.to]).to.deep.equal(['outsider@example.test']);
    expect(en.subject).to.equal('New submission to P');
    expect(en.text)
      .to.contain(`${hhmm('UTC')} UTC`)
      .and.contain(`Open it in Fieldhouse: ${link}`);
    // No raw ISO 8601 instant any more.
    for (const m of [fr, en]) expect(m.text).to.not.match(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it("tells a workspace's French owner in French, at their local time, that a webhook was disabled, with the console's webhooks page", async () => {
    const ws = await h.as(erin).post('/api/v1/workspaces').send({ name: 'Atelier' }).expect(201);
    const workspaceId = ws.body.data.id as number;
    await upsertUser(h.db, {
      id: erin.id,
      name: erin.name,
      email: erin.email,
      language: 'fr',
      time_zone: 'Europe/Paris',
      updated_at: new Date(Date.now() + 60_000),
    });
    const hookId = `wh-${workspaceId}`;
    const before = new Date();
    await noticeDisabledWebhook(
      { db: h.db, inTransaction: inTransactionWith(h.db, 'outbox'), publicUrl: 'https://fh.example.test' },
      {
        id: hookId,
        url: 'https://hooks.example.test/x',
        reason: 'gone',
        scope: { workspace_id: workspaceId },
      },
    );
    const mails = (await h.db('outbox').select('message'))
      .map((r) => r.message.data)
      .filter((m) => m.reason === 'webhook-disabled' && m.text.includes(hookId));
    expect(mails).to.have.length(1);
    const mail = mails[0];
    expect(mail.to).to.deep.equal([erin.email]);
    expect(mail.subject).to.equal('Webhook désactivé : https://hooks.example.test/x');
    expect(mail.text).to.contain('sur l’espace de travail « Atelier » a été désactivé le');
    const day = new Intl.DateTimeFormat('fr-FR', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Europe/Paris',
    }).format(before);
    expect(mail.text)
      .to.contain(day)
      .and.match(/ UTC\+[12] parce que/);
    const link = `https://fh.example.test/workspaces/${workspaceId}/webhooks`;
    expect(mail.text).to.contain(`Ses webhooks dans la console Fieldhouse : ${link}`);
    expect(mail.html).to.contain(`href="${link}"`);
  });
});
