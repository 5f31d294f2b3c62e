import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { newWebhookSecret } from './signing.ts';
import {
  SubscriptionLimitError,
  type AttemptRow,
  type DeliveryFilter,
  type DeliveryFound,
  type DeliveryRow,
  type Scope,
  type SubscriptionInput,
  type SubscriptionRow,
  type WebhookRepository,
} from './rows.ts';
import { PING_KIND } from './types.ts';

/**
 * How an area counts the subscriptions a new or changed one would share events with, for the
 * cap (docs/webhooks.md, "Isolation"). By default every subscription of the scope; area A counts
 * per project (those of every project plus those listing it, the most over its projects).
 */
export interface SubscriptionReach {
  /**
   * How many subscriptions of `scope`, other than `except`, share an event with one whose own
   * columns are `columns` (the area's, as the create or update body gave them).
   */
  count: (
    trx: Knex.Transaction,
    scope: Scope,
    columns: Record<string, unknown>,
    except: string | null,
  ) => Promise<number>;
  /** The area's columns whose change on update can raise the count (checked then only). */
  changedBy: string[];
}

/** Every subscription of the scope shares its events: the default {@link SubscriptionReach}. */
const wholeScope: SubscriptionReach = {
  count: async (trx, scope, _columns, except) => {
    const q = trx('webhook_subscriptions').where(scope);
    if (except) q.whereNot('id', except);
    const [row] = (await q.count<Array<{ n: string }>>({ n: '*' })) as Array<{ n: string }>;
    return Number(row?.n ?? 0);
  },
  changedBy: [],
};

/**
 * Runs `work` in a transaction holding the scope's advisory lock, so the cap's count and the
 * write it allows are not interleaved with another creation in the same scope (any process).
 */
async function underScopeLock<T>(db: Knex, scope: Scope, work: (trx: Knex.Transaction) => Promise<T>) {
  return db.transaction(async (trx) => {
    const key = `webhook_subscriptions:${JSON.stringify(Object.entries(scope).sort())}`;
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
    return work(trx);
  });
}

/**
 * Inserts a subscription in `scope` (with the area's own `columns`) and a new secret; resolves
 * with the row. With `limit`, under the scope's lock and only while fewer than `limit` share
 * its events ({@link SubscriptionReach}).
 * @throws SubscriptionLimitError when `limit` is reached: nothing is inserted.
 */
async function insertSubscription(
  db: Knex,
  scope: Scope,
  input: SubscriptionInput,
  createdBy: number | null,
  columns: Record<string, unknown> = {},
  limit?: number,
  reach: SubscriptionReach = wholeScope,
): Promise<SubscriptionRow> {
  if (limit !== undefined)
    return underScopeLock(db, scope, async (trx) => {
      if ((await reach.count(trx, scope, columns, null)) >= limit) throw new SubscriptionLimitError(limit);
      return insertSubscription(trx, scope, input, createdBy, columns);
    });
  const [row] = (await db('webhook_subscriptions')
    .insert({
      id: randomUUID(),
      ...scope,
      ...columns,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      active: input.active ?? true,
      disabled_reason: input.active === false ? 'by_owner' : null,
      secret: newWebhookSecret(),
      created_by: createdBy,
    })
    .returning('*')) as SubscriptionRow[];
  return row!;
}

/** The subscriptions of `scope`, newest first. */
async function listSubscriptions(db: Knex, scope: Scope): Promise<SubscriptionRow[]> {
  return (await db('webhook_subscriptions').where(scope).orderBy('created_at', 'desc')) as SubscriptionRow[];
}

/** One subscription of `scope`, or undefined. */
async function findSubscription(db: Knex, scope: Scope, id: string): Promise<SubscriptionRow | undefined> {
  return (await db('webhook_subscriptions')
    .where({ ...scope, id })
    .first()) as SubscriptionRow | undefined;
}

/**
 * Changes a subscription's URL (and the area's own `columns`), kinds, description or state; turning it on again clears its
 * failure streak and disabled reason, turning it off records `by_owner`. Undefined when absent.
 * With `limit`, a change of the columns of `reach.changedBy` is made under the scope's lock and
 * only while fewer than `limit` others share its events.
 * @throws SubscriptionLimitError when `limit` is reached: nothing is changed.
 */
async function updateSubscription(
  db: Knex,
  scope: Scope,
  id: string,
  patch: Partial<SubscriptionInput>,
  columns: Record<string, unknown> = {},
  limit?: number,
  reach: SubscriptionReach = wholeScope,
): Promise<SubscriptionRow | undefined> {
  if (limit !== undefined && reach.changedBy.some((k) => k in columns))
    return underScopeLock(db, scope, async (trx) => {
      if ((await reach.count(trx, scope, columns, id)) >= limit) throw new SubscriptionLimitError(limit);
      return updateSubscription(trx, scope, id, patch, columns);
    });
  const changes: Record<string, unknown> = { ...columns, updated_at: db.fn.now() };
  if (patch.url !== undefined) changes.url = patch.url;
  if (patch.events !== undefined) changes.events = patch.events;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.active === true)
    Object.assign(changes, { active: true, failure_streak: 0, disabled_reason: null, disabled_at: null });
  if (patch.active === false)
    Object.assign(changes, {
      active: false,
      disabled_reason: db.raw(`CASE WHEN active THEN 'by_owner' ELSE disabled_reason END`),
      disabled_at: db.raw('coalesce(disabled_at, now())'),
    });
  const [row] = (await db('webhook_subscriptions')
    .where({ ...scope, id })
    .update(changes)
    .returning('*')) as SubscriptionRow[];
  return row;
}

/** Deletes a subscription and its delivery log; false when absent. */
async function deleteSubscription(db: Knex, scope: Scope, id: string): Promise<boolean> {
  return (
    (await db('webhook_subscriptions')
      .where({ ...scope, id })
      .delete()) > 0
  );
}

/**
 * Gives a subscription a new secret; the current one becomes the previous one and keeps
 * signing alongside for `overlapMs`. Resolves with the row (its `secret` is the new one).
 */
async function rotateSecret(
  db: Knex,
  scope: Scope,
  id: string,
  overlapMs: number,
): Promise<SubscriptionRow | undefined> {
  const [row] = (await db('webhook_subscriptions')
    .where({ ...scope, id })
    .update({
      previous_secret: db.raw('secret'),
      previous_secret_expires_at: db.raw(`now() + ? * interval '1 millisecond'`, [overlapMs]),
      secret: newWebhookSecret(),
      updated_at: db.fn.now(),
    })
    .returning('*')) as SubscriptionRow[];
  return row;
}

/** A page of a subscription's deliveries, newest first, with the total matching. */
async function listDeliveries(
  db: Knex,
  subscriptionId: string,
  filter: DeliveryFilter,
  page: { page: number; per_page: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const base = db('webhook_deliveries').where({
    subscription_id: subscriptionId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
  });
  const [rows, counted] = (await Promise.all([
    base
      .clone()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page),
    base.clone().count<Array<{ n: string }>>({ n: '*' }),
  ])) as [DeliveryRow[], Array<{ n: string }>];
  return { rows, total: Number(counted[0]?.n ?? 0) };
}

/** One delivery of a subscription with its attempts (oldest first) and the body sent. */
async function findDelivery(
  db: Knex,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryFound | undefined> {
  const row = (await db('webhook_deliveries as d')
    .join('webhook_messages as m', 'm.id', 'd.message_id')
    .select('d.*', 'm.body')
    .where({ 'd.subscription_id': subscriptionId, 'd.id': deliveryId })
    .first()) as (DeliveryRow & { body: string }) | undefined;
  if (!row) return undefined;
  const attempts = (await db('webhook_attempts')
    .select('attempted_at', 'response_status', 'duration_ms', 'response_body', 'error')
    .where('delivery_id', deliveryId)
    .orderBy('id')) as AttemptRow[];
  const { body, ...delivery } = row;
  return { row: delivery, attempts, body };
}

/**
 * Queues a delivery again, due now, as a new round of the retry schedule (same message, same
 * `webhook-id`); the delivery worker's poll picks it up within its interval. A delivery being
 * attempted right now (pending under a live lease) is left as it is, so the attempt's result is
 * not lost: it is answered unchanged. Undefined when absent.
 */
async function redeliver(
  db: Knex,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
  const mine = { subscription_id: subscriptionId, id: deliveryId };
  const [row] = (await db('webhook_deliveries')
    .where(mine)
    .andWhere((q) =>
      q.whereNot('status', 'pending').orWhereNull('locked_until').orWhere('locked_until', '<', db.fn.now()),
    )
    .update(roundRestart(db))
    .returning('*')) as DeliveryRow[];
  return row ?? ((await db('webhook_deliveries').where(mine).first()) as DeliveryRow | undefined);
}

/** Queues again every failed delivery of the subscription created at or after `since`; resolves with how many. */
async function redeliverFailedSince(db: Knex, subscriptionId: string, since: Date): Promise<number> {
  return db('webhook_deliveries')
    .where({ subscription_id: subscriptionId, status: 'failed' })
    .andWhere('created_at', '>=', since)
    .update(roundRestart(db));
}

const roundRestart = (db: Knex) => ({
  status: 'pending',
  round_start: db.raw('attempts'),
  next_attempt_at: db.fn.now(),
  lock_token: null,
  locked_until: null,
});

/**
 * Records a `ping` message for one subscription (delivered even when it does not take `ping`,
 * and even when disabled) and its delivery, due now; resolves with the delivery.
 */
async function insertPing(db: Knex, subscriptionId: string, scope: Scope): Promise<DeliveryRow> {
  return db.transaction(async (trx) => {
    const id = randomUUID();
    const at = new Date();
    await trx('webhook_messages').insert({
      id,
      kind: PING_KIND,
      scope: JSON.stringify(scope),
      body: JSON.stringify({
        type: PING_KIND,
        timestamp: at.toISOString(),
        data: { subscription_id: subscriptionId },
      }),
      created_at: at,
    });
    const [row] = (await trx('webhook_deliveries')
      .insert({
        id: randomUUID(),
        subscription_id: subscriptionId,
        message_id: id,
        kind: PING_KIND,
        status: 'pending',
        next_attempt_at: at,
      })
      .returning('*')) as DeliveryRow[];
    return row!;
  });
}

/**
 * The {@link WebhookRepository} of a PostgreSQL service, on the tables of `createWebhookTables`;
 * `reach` is how the area counts subscriptions against the cap (default: the whole scope's).
 */
export function knexWebhookRepository(db: Knex, reach: SubscriptionReach = wholeScope): WebhookRepository {
  return {
    insert: (scope, input, createdBy, columns, limit) =>
      insertSubscription(db, scope, input, createdBy, columns, limit, reach),
    list: (scope) => listSubscriptions(db, scope),
    find: (scope, id) => findSubscription(db, scope, id),
    update: (scope, id, patch, columns, limit) =>
      updateSubscription(db, scope, id, patch, columns, limit, reach),
    remove: (scope, id) => deleteSubscription(db, scope, id),
    removeAll: (scope) => db('webhook_subscriptions').where(scope).delete(),
    rotateSecret: (scope, id, overlapMs) => rotateSecret(db, scope, id, overlapMs),
    insertPing: (subscriptionId, scope) => insertPing(db, subscriptionId, scope),
    listDeliveries: (subscriptionId, filter, page) => listDeliveries(db, subscriptionId, filter, page),
    findDelivery: (subscriptionId, deliveryId) => findDelivery(db, subscriptionId, deliveryId),
    redeliver: (subscriptionId, deliveryId) => redeliver(db, subscriptionId, deliveryId),
    redeliverFailedSince: (subscriptionId, since) => redeliverFailedSince(db, subscriptionId, since),
  };
}
