import { expect } from 'chai';
import { EMAIL_REQUESTED, envelope, type EmailRequested } from '@fieldhouse/contracts';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { createMailer, startEmailWorker, type Mailer, type SentLog } from '@fieldhouse/mail';
import { Broker, countMessages, defineProcessedMessagesTable, processOnce } from '@fieldhouse/messaging';
import {
  backingUrl,
  createTestDatabase,
  eventually,
  randomPrefix,
  sleep,
  startSmtpSink,
  testLogger,
  type SmtpSink,
  type TestDatabase,
} from '@fieldhouse/testkit';

describe('e-mail worker (real RabbitMQ, PostgreSQL and SMTP sink)', () => {
  const logger = testLogger('mail');
  let sink: SmtpSink;
  let broker: Broker;
  let db: TestDatabase;
  let knex: Knex;
  let sentLog: SentLog;

  before(async () => {
    sink = await startSmtpSink();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'mail-test',
      prefix: randomPrefix('mail'),
    });
    db = await createTestDatabase('mail');
    await migrateLatest(db.url, [
      {
        name: '001',
        up: (k) => k.schema.createTable('processed_messages', defineProcessedMessagesTable(k)),
        down: async () => undefined,
      },
    ]);
    knex = createKnex(db.url);
    sentLog = { runOnce: (id, send) => processOnce(knex, 'processed_messages', 'mail', id, () => send()) };
  });
  after(async () => {
    await broker?.close();
    await knex?.destroy();
    await db?.drop();
    await sink?.close();
  });

  const job = (subject: string): EmailRequested => ({
    to: ['someone@example.test'],
    subject,
    text: 'Hello',
    html: '<p>Hello</p>',
    reason: 'test',
    attachments: [
      { filename: 'a.txt', contentType: 'text/plain', contentBase64: Buffer.from('hi').toString('base64') },
    ],
  });

  it('sends a job once, with its attachment, even when the message is delivered twice', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Fieldhouse <no-reply@example.test>');
    const worker = await startEmailWorker({
      broker,
      mailer,
      sentLog,
      logger,
      exchange: 'events',
      queue: 'mail-once',
    });
    const msg = envelope('events', EMAIL_REQUESTED, job('Once only'));
    await broker.publish('events', msg);
    await broker.publish('events', msg);
    const got = await sink.waitFor((m) => m.subject === 'Once only');
    expect(got.envelope.to).to.deep.equal(['someone@example.test']);
    expect(got.attachments[0]).to.include({ filename: 'a.txt', contentType: 'text/plain' });
    expect(got.headers['message-id']).to.contain(msg.id);
    await sleep(300);
    expect(sink.messages().filter((m) => m.subject === 'Once only')).to.have.length(1);
    await worker.close();
    mailer.close();
  });

  it('retries when SMTP fails, then delivers; dead-letters after the last attempt', async () => {
    const real = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'no-reply@example.test');
    let failures = 1;
    const flaky: Mailer = {
      send: async (email, id) => {
        if (email.subject === 'Never' || failures-- > 0) throw new Error('SMTP 451 try again later');
        await real.send(email, id);
      },
      close: () => real.close(),
    };
    const worker = await startEmailWorker({
      broker,
      mailer: flaky,
      sentLog,
      logger,
      exchange: 'events',
      queue: 'mail-flaky',
      retryDelaysMs: [30, 30],
    });
    await broker.publish('events', envelope('events', EMAIL_REQUESTED, job('After a failure')));
    await sink.waitFor((m) => m.subject === 'After a failure');
    await broker.publish('events', envelope('events', EMAIL_REQUESTED, job('Never')));
    await eventually(
      async () => (await countMessages(await backingUrl('amqp'), `${broker.name('mail-flaky')}.dlq`)) === 1,
    );
    expect(sink.messages().some((m) => m.subject === 'Never')).to.equal(false);
    await worker.close();
    flaky.close();
  });
});
