import { expect } from 'chai';
import { envelope } from '@fieldhouse/contracts';
import { Broker } from '@fieldhouse/messaging';
import { AddressGuard, startWebhookWorker, WebhookSender, type SubscriptionRow } from '@fieldhouse/webhooks';
import {
  backingUrl,
  eventually,
  randomPrefix,
  sleep,
  startWebhookReceiver,
  testLogger,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { BACKENDS, type Backend } from './backends.ts';

/**
 * The sender's time limit in this test: longer than the test, so an attacker attempt, once
 * started, holds its slot until the end (the receiver is closed then). The victim being
 * delivered at all thus proves it never needed one of the attacker's slots, however slow the
 * machine; how fast it is delivered is a figure of `npm run bench:webhooks` (BENCH_ISOLATION).
 */
const HANG_MS = 600_000;
/** The worker's production share of one owner: attempts in flight per owner (docs/webhooks.md, "Isolation"). */
const OWNER_SHARE = 16;
const ATTACKER = 666;
const VICTIM = 7;

/**
 * Issue 31: one owner's dead receivers must not delay another owner's deliveries. The worker
 * runs with its production limits (128 slots, 8 per subscription, 16 per owner, 16 sockets per
 * owner and origin) and a time limit longer than the test (see HANG_MS).
 */
for (const [name, makeBackend] of BACKENDS) {
  describe(`webhooks: isolation between owners on ${name} (real RabbitMQ and receivers)`, function () {
    this.timeout(150_000);
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
        name: 'webhooks-isolation-test',
        prefix: randomPrefix('whi'),
      });
      receiver = await startWebhookReceiver();
      worker = await startWebhookWorker({
        broker,
        store: backend.store,
        sender: new WebhookSender({
          guard: new AddressGuard(['127.0.0.0/8']),
          allowHttp: true,
          timeoutMs: HANG_MS,
        }),
        logger,
        exchange: 'events',
        queuePrefix: 'isolation',
        // No retry within the test: each attacker delivery is one hanging attempt, then a long wait.
        retryScheduleMs: [600_000],
        attemptTimeoutMs: HANG_MS,
      });
    });
    after(async () => {
      // The hanging requests end at once, so the worker's in-flight attempts finish quickly.
      await receiver?.close();
      await worker?.close();
      await broker?.close();
      await backend?.close();
    });

    const emit = (tenant: number, data: unknown) =>
      broker.publish(
        'events',
        envelope('events', 'webhook.thing.done', { scope: { tenant_id: tenant }, data }),
      );

    it('delivers to another owner while one owner’s 60 receivers hold its whole share and its 1,184 other deliveries wait', async () => {
      // The attacker: 60 subscriptions in three scopes of 20 (the cap), all created by one user,
      // each to its own path of a receiver that accepts the connection and never answers.
      const attacker: SubscriptionRow[] = [];
      for (let i = 0; i < 60; i++) {
        const path = `/dead-${i}`;
        receiver.answer(path, 'hang');
        attacker.push(
          await backend.repo.insert(
            { tenant_id: 100 + (i % 3) },
            { url: `${receiver.url}${path}`, events: ['thing.done'] },
            ATTACKER,
          ),
        );
      }
      // The victim: another owner, on the same origin (a receiver both use), answering at once.
      const victim = await backend.repo.insert(
        { tenant_id: 200 },
        { url: `${receiver.url}/victim`, events: ['thing.done'] },
        VICTIM,
      );
      // 20 events in each attacker scope: 1,200 deliveries, each attempt held until the end.
      for (let n = 0; n < 20; n++) for (const tenant of [100, 101, 102]) await emit(tenant, { n });
      const dead = () => receiver.received.filter((r) => r.path.startsWith('/dead-'));
      await eventually(async () => dead().length >= OWNER_SHARE, 60_000);
      // Every delivery fanned out (so the victim competes with the worker's slots and sockets,
      // not with the store still writing the 1,200), then a moment for them to wait or be put back.
      await eventually(async () => {
        const totals = await Promise.all(
          attacker.map(
            async (s) => (await backend.repo.listDeliveries(s.id, {}, { page: 1, per_page: 1 })).total,
          ),
        );
        return totals.reduce((x, y) => x + y, 0) === 1_200;
      }, 60_000);
      await sleep(500);

      await emit(200, { n: 'victim' });
      const found = await eventually(
        async () => {
          const [d] = (await backend.repo.listDeliveries(victim.id, {}, { page: 1, per_page: 1 })).rows;
          if (!d || d.status !== 'succeeded') return undefined;
          return backend.repo.findDelivery(victim.id, d.id);
        },
        90_000,
        20,
      ).catch(() => {
        throw new Error(
          `the victim's delivery did not succeed (${dead().length} attacker requests hanging): ` +
            'it waits for a slot the attacker holds',
        );
      });
      expect(found!.row).to.include({ status: 'succeeded', attempts: 1, response_status: 204 });
      expect(receiver.on('/victim'), 'requests to the victim').to.have.length(1);
      // When it arrived, the attacker held exactly its share, every one of those requests still
      // hanging (none can end before the receiver closes), and none of its other 1,184
      // deliveries had been attempted: the victim went past the flood, not after it.
      const arrival = receiver.on('/victim')[0]!.at;
      expect(
        dead().filter((r) => r.at <= arrival),
        'attacker requests hanging when the victim arrived',
      ).to.have.length(OWNER_SHARE);
      const attackerEnded = await Promise.all(
        attacker.map(async (s) =>
          (await backend.repo.listDeliveries(s.id, {}, { page: 1, per_page: 100 })).rows.filter(
            (d) => d.attempts > 0 || d.status !== 'pending',
          ),
        ),
      );
      expect(
        attackerEnded.flat().map((d) => `${d.id}: ${d.status}, ${d.attempts} attempts`),
        'attacker deliveries attempted to the end, or no longer pending',
      ).to.deep.equal([]);
    });
  });
}
