import type { Db } from 'mongodb';
import { Exchanges, type Envelope } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import type { Broker } from '@fieldhouse/messaging';
import { MongoWebhookStore, startWebhookWorker, type WebhookDeliverySettings } from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';
import { noticeDisabledWebhook } from '../domain/webhooks.ts';

/**
 * The polls service's webhook delivery worker (libs/webhooks `startWebhookWorker` on
 * `MongoWebhookStore`): fans its `webhook.*` events out to the poll's subscriptions, delivers
 * them, and e-mails the poll's owner when a webhook gets disabled (`publicUrl`: the console's
 * address, for the link in that e-mail). Queues `polls.webhooks` and
 * `polls.webhook-deliveries`.
 */
export function startPollsWebhookWorker(
  opts: { broker: Broker; db: Db; logger: Logger; publicUrl?: string } & WebhookDeliverySettings,
) {
  const { db, broker, publicUrl } = opts;
  const notice = {
    db,
    publish: (message: Envelope) => broker.publish(changes.source, message),
    ...(publicUrl ? { publicUrl } : {}),
  };
  return startWebhookWorker({
    ...opts,
    store: new MongoWebhookStore(db, (scope) => ({ poll_id: String(scope.poll_id) })),
    exchange: Exchanges.polls,
    queuePrefix: 'polls',
    // FerretDB queues concurrent writes: a burst of a hundred fan-outs at once held the store
    // past its probes' deadline (the fault suite's webhook-flood); eight at a time, taking turns
    // by poll, keep it answering and another poll's event a few fan-outs behind.
    fanOutConcurrency: 8,
    onDisabled: (s) => noticeDisabledWebhook(notice, s),
  });
}
