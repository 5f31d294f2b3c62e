import type { Db } from 'mongodb';
import { Exchanges } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import type { Broker } from '@fieldhouse/messaging';
import {
  disabledWebhookEmail,
  MongoWebhookStore,
  startWebhookWorker,
  webhookCollections,
  type DisabledSubscription,
  type WebhookDeliverySettings,
} from '@fieldhouse/webhooks';
import { collections } from '../data/collections.ts';
import { changes } from '../domain/changes.ts';

/**
 * Tells the owner of a poll that one of its webhooks was disabled by its deliveries: an e-mail
 * job on the `polls` exchange (the polls e-mail worker sends it) to the address the owner had
 * when they last created or changed the webhook (`owner_email`). Nothing when it has none.
 * English and UTC (polls keeps no users, so nothing tells the owner's language or zone; docs/errors.md,
 * "E-mails in the recipient's language"), with a link to the poll's webhooks page in the
 * console when `publicUrl` (`PUBLIC_URL`) is given.
 */
async function noticeDisabledWebhook(
  db: Db,
  broker: Broker,
  s: DisabledSubscription,
  publicUrl?: string,
): Promise<void> {
  const [subscription, poll] = await Promise.all([
    webhookCollections(db).subscriptions.findOne({ _id: s.id }),
    collections(db).polls.findOne({ _id: String(s.scope.poll_id) }),
  ]);
  const to = subscription?.owner_email;
  if (typeof to !== 'string' || !poll) return;
  const mail = disabledWebhookEmail(
    [to],
    s,
    `the poll "${poll.title}"`,
    publicUrl ? { link: `${publicUrl}/polls/${poll._id}/webhooks` } : {},
  );
  await broker.publish(changes.source, changes.envelope('email.requested', mail));
}

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
  const { db, broker } = opts;
  return startWebhookWorker({
    ...opts,
    store: new MongoWebhookStore(db, (scope) => ({ poll_id: String(scope.poll_id) })),
    exchange: Exchanges.polls,
    queuePrefix: 'polls',
    onDisabled: (s) => noticeDisabledWebhook(db, broker, s, opts.publicUrl),
  });
}
