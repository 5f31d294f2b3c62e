import { expect } from 'chai';
import { envelope } from '@fieldhouse/contracts';
import { Broker } from '@fieldhouse/messaging';
import { AddressGuard, startWebhookWorker, WebhookSender } from '@fieldhouse/webhooks';
import {
  backingUrl,
  eventually,
  randomPrefix,
  startWebhookReceiver,
  testLogger,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { BACKENDS, type Backend } from './backends.ts';

/**
 * The worker fans events out taking turns by scope (docs/webhooks.md, "Isolation"): with one
 * fan-out at a time and 30 events of one scope queued before another scope's one, the other
 * scope's delivery goes out after two or three of the burst's, not after all thirty (a queue
 * in arrival order, the worker before this, sent it last: the fault suite's webhook-flood saw
 * another owner's deliveries 3 to 5 s behind a burst of 60 events).
 */
for (const [name, makeBackend] of BACKENDS) {
  describe(`webhooks: the fan-out takes turns between scopes on ${name} (real RabbitMQ and receiver)`, function () {
    this.timeout(60_000);
    const logger = testLogger('webhooks');
    let backend: Backend;
    let broker: Broker;
    let receiver: WebhookReceiver;
    let worker: { close: () => Promise<void> } | undefined;

    before(async () => {
      backend = await makeBackend();
      broker = new Broker({
        url: await backingUrl('amqp'),
        logger,
        name: 'webhooks-turns-test',
        prefix: randomPrefix('wht'),
      });
      await broker.waitForConnect();
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await worker?.close();
      await receiver?.close();
      await broker?.close();
      await backend?.close();
    });

    it('delivers another scope’s event after a few of a burst’s, not after the burst', async () => {
      await backend.repo.insert(
        { tenant_id: 300 },
        { url: `${receiver.url}/burst`, events: ['thing.done'] },
        1,
      );
      await backend.repo.insert(
        { tenant_id: 301 },
        { url: `${receiver.url}/other`, events: ['thing.done'] },
        2,
      );
      const startWorker = () =>
        startWebhookWorker({
          broker,
          store: backend.store,
          sender: new WebhookSender({ guard: new AddressGuard(['127.0.0.0/8']), allowHttp: true }),
          logger,
          exchange: 'events',
          queuePrefix: 'turns',
          fanOutConcurrency: 1,
        });
      // Declare the queues, then stop: the events wait in RabbitMQ, the burst's first.
      await (await startWorker()).close();
      const emit = (tenant: number, n: number) =>
        broker.publish(
          'events',
          envelope('events', 'webhook.thing.done', { scope: { tenant_id: tenant }, data: { n } }),
        );
      for (let n = 0; n < 30; n++) await emit(300, n);
      await emit(301, 0);
      worker = await startWorker();

      await eventually(async () => receiver.on('/other').length === 1, 30_000);
      const arrival = receiver.on('/other')[0]!.at;
      const before = receiver.on('/burst').filter((r) => r.at <= arrival).length;
      expect(before, 'burst deliveries sent before the other scope’s').to.be.at.most(5);
      await eventually(async () => receiver.on('/burst').length === 30, 30_000);
    });
  });
}
