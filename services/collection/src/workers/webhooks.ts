import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges } from '@fieldhouse/contracts';
import { inTransactionWith, type Broker } from '@fieldhouse/messaging';
import { KnexWebhookStore, startWebhookWorker, type WebhookDeliverySettings } from '@fieldhouse/webhooks';
import { noticeDisabledWebhook } from '../domain/webhooks.ts';

/**
 * The collection service's webhook delivery worker (libs/webhooks `startWebhookWorker`): fans
 * its `webhook.*` events out to the workspace's subscriptions (those limited to projects only
 * for theirs), delivers them, and e-mails the workspace owners when a webhook gets disabled.
 * Queues `collection.webhooks` and `collection.webhook-deliveries`. `publicUrl` (`PUBLIC_URL`):
 * the console's address, for the link to the workspace's webhooks page in that e-mail.
 */
export function startCollectionWebhookWorker(
  opts: {
    broker: Broker;
    db: Knex;
    logger: Logger;
    outboxWritten?: () => void;
    publicUrl?: string;
  } & WebhookDeliverySettings,
) {
  const { db } = opts;
  return startWebhookWorker({
    ...opts,
    store: new KnexWebhookStore(
      db,
      `s.workspace_id = (m.scope->>'workspace_id')::int
       AND (s.project_ids IS NULL OR (m.scope->>'project_id')::int = ANY(s.project_ids))`,
    ),
    exchange: Exchanges.collection,
    queuePrefix: 'collection',
    onDisabled: (s) =>
      noticeDisabledWebhook(
        {
          db,
          inTransaction: inTransactionWith(db, 'outbox', opts.outboxWritten),
          ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
        },
        s,
      ),
  });
}
