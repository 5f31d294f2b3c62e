import { startCollectionEmailWorker, startUsersProjection } from '@fieldhouse/collection';
import { createMailer } from '@fieldhouse/mail';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { testLogger, type SmtpSink } from '@fieldhouse/testkit';
import type { TestStack } from './stack.ts';

/**
 * The collection service's background parts for a test stack, as its process and worker run
 * them: the outbox relay, the users projection fed by the gateway's user events (which also
 * turns invitations into memberships), and the e-mail worker delivering to `sink`.
 * @returns a function that stops them.
 */
export async function startCollectionWorkers(stack: TestStack, sink: SmtpSink): Promise<() => Promise<void>> {
  const logger = testLogger('collection-workers');
  const broker = new Broker({
    url: stack.config.AMQP_URL,
    logger,
    name: 'collection-e2e',
    prefix: stack.config.AMQP_PREFIX,
  });
  const relay = new OutboxRelay({
    knex: stack.collection.db,
    table: 'outbox',
    broker,
    logger,
    intervalMs: 100,
  });
  relay.start();
  const mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Fieldhouse <no-reply@example.test>');
  const mail = await startCollectionEmailWorker({
    broker,
    db: stack.collection.db,
    mailer,
    logger,
    retryDelaysMs: [200],
  });
  const users = await startUsersProjection(broker, stack.collection.db, logger);
  return async () => {
    await users.close();
    await mail.close();
    await relay.stop();
    await broker.close();
    mailer.close();
  };
}
