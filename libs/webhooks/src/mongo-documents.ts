import type { Collection, Db } from 'mongodb';
import type { DeliveryFields, SubscriptionFields } from './rows.ts';

/** A subscription document (`webhook_subscriptions`; scope keys such as `poll_id` besides). */
export interface SubscriptionDoc extends SubscriptionFields {
  _id: string;
  [scope: string]: unknown;
}

/** An event as it happened (`webhook_messages`), its body frozen as the exact JSON sent. */
export interface MessageDoc {
  _id: string;
  kind: string;
  scope: Record<string, string | number>;
  body: string;
  created_at: Date;
}

/** One message to one subscription (`webhook_deliveries`), with its lease and round. */
export interface DeliveryDoc extends DeliveryFields {
  _id: string;
  round_start: number;
  lock_token: string | null;
  locked_until: Date | null;
}

/** One attempt (`webhook_attempts`). */
export interface AttemptDoc {
  _id: string;
  delivery_id: string;
  subscription_id: string;
  attempted_at: Date;
  response_status: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

/**
 * A lease on one scope's capped creations (`webhook_locks`): whoever inserted the document
 * holds the scope until it deletes it or `expires_at` passes (a holder that died).
 */
export interface LockDoc {
  _id: string;
  token: string;
  expires_at: Date;
}

/** The webhook collections of a MongoDB service's database, typed. */
export function webhookCollections(db: Db) {
  return {
    subscriptions: db.collection<SubscriptionDoc>('webhook_subscriptions'),
    messages: db.collection<MessageDoc>('webhook_messages'),
    deliveries: db.collection<DeliveryDoc>('webhook_deliveries'),
    attempts: db.collection<AttemptDoc>('webhook_attempts'),
    locks: db.collection<LockDoc>('webhook_locks'),
  };
}
export type WebhookCollections = ReturnType<typeof webhookCollections>;
export type { Collection };

/**
 * The indexes the webhook collections rely on (idempotent; the service's `migrate` runs it).
 * `scopeKey` is the subscriptions' scope key (`poll_id`). Plain and unique compound indexes
 * only, so FerretDB 1.24 serves them too.
 */
export async function ensureWebhookIndexes(db: Db, scopeKey: string): Promise<void> {
  const c = webhookCollections(db);
  await c.subscriptions.createIndex({ [scopeKey]: 1, created_at: -1 });
  await c.messages.createIndex({ created_at: 1 });
  // One delivery per message and subscription: a fan-out repeated after a crash adds none.
  await c.deliveries.createIndex({ subscription_id: 1, message_id: 1 }, { unique: true });
  await c.deliveries.createIndex({ subscription_id: 1, created_at: -1 });
  await c.deliveries.createIndex({ status: 1, next_attempt_at: 1 });
  await c.deliveries.createIndex({ created_at: 1 });
  await c.attempts.createIndex({ delivery_id: 1, attempted_at: 1 });
  await c.attempts.createIndex({ subscription_id: 1 });
}
