import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import type { Broker } from '@fieldhouse/messaging';
import { KnexWebhookStore, startWebhookWorker, type WebhookDeliverySettings } from '@fieldhouse/webhooks';
import { createEventsContext } from '../app.ts';
import { noticeDisabledWebhook } from '../domain/webhooks.ts';

/**
 * The events service's webhook delivery worker (libs/webhooks `startWebhookWorker`): fans its
 * `webhook.*` events out to the event's subscriptions, delivers them, and e-mails the event owner
 * when a webhook gets disabled. Queues `events.webhooks` and `events.webhook-deliveries`.
 * `publicUrl` (`PUBLIC_URL`): the console's address, for the link to the event's webhooks page.
 */
export function startEventsWebhookWorker(
  opts: { broker: Broker; db: Knex; logger: Logger; publicUrl?: string } & WebhookDeliverySettings,
) {
  const { db, logger, publicUrl } = opts;
  // The service's context (its `inTransaction` writes the owner's e-mail with the outbox).
  const ctx = createEventsContext({ db, logger });
  return startWebhookWorker({
    ...opts,
    store: new KnexWebhookStore(db, "s.event_id = (m.scope->>'event_id')::uuid"),
    exchange: Exchanges.events,
    queuePrefix: 'events',
    onDisabled: (s) =>
      noticeDisabledWebhook(
        { db: ctx.db, inTransaction: ctx.inTransaction, ...(publicUrl ? { publicUrl } : {}) },
        s,
      ),
  });
}
