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
 * How long the attacker's receivers hold each attempt: the sender's production time limit
 * (`WEBHOOK_TIMEOUT_MS`). It costs the test nothing: the receiver is closed at the end.
 */
const HANG_MS = 10_000;
const ATTACKER = 666;
const VICTIM = 7;

/**
 * Issue 31: one owner's dead receivers must not delay another owner's deliveries. The worker
 * runs with its production limits (128 slots, 8 per subscription, 16 per owner, 16 sockets per
 * owner and origin, a 10 s time limit).
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

    it('delivers to another owner within 1 s while one owner’s 60 receivers accept connections and never answer', async () => {
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
      // 20 events in each attacker scope: 1,200 deliveries, each held until the time limit.
      for (let n = 0; n < 20; n++) for (const tenant of [100, 101, 102]) await emit(tenant, { n });
      const dead = () => receiver.received.filter((r) => r.path.startsWith('/dead-'));
      await eventually(async () => dead().length >= 16, 10_000);
      // Every delivery fanned out (so what is measured below is the worker's slots and sockets,
      // not the store still writing the 1,200), then a moment for them to wait or be put back.
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
          `the victim's delivery did not succeed within 90 s of its event (${dead().length} attacker requests hanging)`,
        );
      });
      const eventAt = Date.parse((JSON.parse(found!.body) as { timestamp: string }).timestamp);
      const attemptDelay = found!.attempts[0]!.attempted_at.getTime() - eventAt;
      const arrival = receiver.on('/victim')[0]!.at;
      const arrivalDelay = arrival - eventAt;
      // The figures docs/webhooks.md ("Isolation") quotes.
      console.log(
        `      the victim's attempt +${attemptDelay} ms, arrival +${arrivalDelay} ms after its event; ` +
          `${dead().length} attacker requests hanging`,
      );

      expect(
        attemptDelay,
        `the victim's attempt started ${attemptDelay} ms after its event (arrived after ${arrivalDelay} ms)`,
      ).to.be.below(1_000);
      expect(arrivalDelay, `the victim's delivery arrived ${arrivalDelay} ms after its event`).to.be.below(
        1_000,
      );
      // The attacker's share was hanging when the victim's delivery arrived: at least 16 of its
      // requests had come less than the time limit before (each is held until that limit).
      const hangingAtArrival = dead().filter((r) => r.at <= arrival && arrival - r.at < HANG_MS).length;
      expect(hangingAtArrival, 'attacker requests hanging when the victim arrived').to.be.at.least(16);
      const attackerAttempted = await Promise.all(
        attacker.map(async (s) =>
          (await backend.repo.listDeliveries(s.id, {}, { page: 1, per_page: 100 })).rows.filter(
            (d) =>
              d.attempts > 0 &&
              !!d.last_attempt_at &&
              new Date(d.last_attempt_at).getTime() + (d.duration_ms ?? 0) <= arrival,
          ),
        ),
      );
      expect(attackerAttempted.flat(), 'attacker attempts ended before the victim’s arrival').to.have.length(
        0,
      );
      expect(found!.row).to.include({ status: 'succeeded', attempts: 1, response_status: 204 });
    });
  });
}
