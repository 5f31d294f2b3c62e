import { randomUUID } from 'node:crypto';
import type { Db, Filter } from 'mongodb';
import {
  webhookCollections,
  type DeliveryDoc,
  type SubscriptionDoc,
  type WebhookCollections,
} from './mongo-documents.ts';
import {
  SubscriptionLimitError,
  type DeliveryRow,
  type Scope,
  type SubscriptionRow,
  type WebhookRepository,
} from './rows.ts';
import { newWebhookSecret } from './signing.ts';
import { PING_KIND } from './types.ts';

/** MongoDB's duplicate key error. */
const DUPLICATE_KEY = 11000;

/** A subscription document as the use cases see it (`id` for `_id`). */
const subscriptionRowOf = ({ _id, ...rest }: SubscriptionDoc): SubscriptionRow => ({
  id: _id,
  ...rest,
});

/** A delivery document as the use cases see it. */
const deliveryRowOf = ({ _id, ...rest }: DeliveryDoc): DeliveryRow => ({ id: _id, ...rest });

/** A delivery no attempt holds now: not pending, or pending without a live lease. */
const notLeased = (now: Date): Filter<DeliveryDoc> => ({
  $or: [{ status: { $ne: 'pending' } }, { locked_until: null }, { locked_until: { $lt: now } }],
});

/** How long a scope's lease lasts if its holder dies (ms); a creation takes a few ms. */
const SCOPE_LEASE_MS = 15_000;
/** How long a creation waits for its scope's lease before giving up (ms). */
const SCOPE_WAIT_MS = 10_000;

/**
 * The {@link WebhookRepository} of a MongoDB service (the polls service), on the collections of
 * {@link webhookCollections}. FerretDB has no multi-document transactions and no pipeline
 * updates: each change is one atomic single-document write, and a restart of a delivery's
 * round is a compare-and-set on its attempt count. The cap on a scope's subscriptions is
 * counted under a lease on the scope (a `webhook_locks` document whose unique `_id` only one
 * insert can take, the counterpart of PostgreSQL's advisory lock), so creations racing from
 * several processes are counted one at a time and exactly the cap remain. A ranking of the
 * written documents cannot do this: a creation stamped first may be written last, after a
 * later one has already counted itself within the cap (6 of 5 stored in one CI run).
 */
export function mongoWebhookRepository(db: Db): WebhookRepository {
  const c = webhookCollections(db);
  /** The capped creation under way in each scope in this process, which alone asks for the lease. */
  const creating = new Map<string, Promise<unknown>>();
  /**
   * Runs `work` holding `scope`'s lease, after this process's earlier creations of the scope
   * (so only other processes contend for the document, and FerretDB logs few refused inserts);
   * rejects after {@link SCOPE_WAIT_MS} without it.
   */
  const underScopeLease = <T>(scope: Scope, work: () => Promise<T>): Promise<T> => {
    const key = JSON.stringify(Object.entries(scope).sort());
    const done = (creating.get(key) ?? Promise.resolve()).then(() => leased(key, work));
    const settled = done.catch(() => undefined);
    creating.set(key, settled);
    void settled.then(() => {
      if (creating.get(key) === settled) creating.delete(key);
    });
    return done;
  };
  const leased = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const _id = `subscriptions:${key}`;
    const token = randomUUID();
    const giveUpAt = Date.now() + SCOPE_WAIT_MS;
    for (;;) {
      const now = new Date();
      try {
        await c.locks.insertOne({ _id, token, expires_at: new Date(now.getTime() + SCOPE_LEASE_MS) });
        break;
      } catch (err) {
        if ((err as { code?: number })?.code !== DUPLICATE_KEY) throw err;
      }
      // A lease past its time belonged to a holder that died: take it back.
      await c.locks.deleteOne({ _id, expires_at: { $lt: now } });
      if (Date.now() > giveUpAt) throw new Error(`webhook subscriptions of ${_id} stayed locked`);
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
    }
    try {
      return await work();
    } finally {
      await c.locks.deleteOne({ _id, token });
    }
  };
  const restart = (d: DeliveryDoc, now: Date) =>
    c.deliveries.updateOne(
      { _id: d._id, attempts: d.attempts, ...notLeased(now) },
      {
        $set: {
          status: 'pending',
          round_start: d.attempts,
          next_attempt_at: now,
          lock_token: null,
          locked_until: null,
        },
      },
    );
  const insert: WebhookRepository['insert'] = async (scope, input, createdBy, columns = {}, limit) => {
    if (limit !== undefined)
      return underScopeLease(scope, async () => {
        if ((await c.subscriptions.countDocuments(scope)) >= limit) throw new SubscriptionLimitError(limit);
        return insert(scope, input, createdBy, columns);
      });
    const now = new Date();
    const doc: SubscriptionDoc = {
      _id: randomUUID(),
      ...scope,
      ...columns,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      active: input.active ?? true,
      secret: newWebhookSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      failure_streak: 0,
      disabled_reason: input.active === false ? 'by_owner' : null,
      disabled_at: input.active === false ? now : null,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
    };
    await c.subscriptions.insertOne(doc);
    return subscriptionRowOf(doc);
  };
  return {
    insert,
    async list(scope) {
      const docs = await c.subscriptions.find(scope).sort({ created_at: -1, _id: 1 }).toArray();
      return docs.map(subscriptionRowOf);
    },
    async find(scope, id) {
      const doc = await c.subscriptions.findOne({ ...scope, _id: id });
      return doc ? subscriptionRowOf(doc) : undefined;
    },
    async update(scope, id, patch, columns = {}) {
      const now = new Date();
      const current = await c.subscriptions.findOne({ ...scope, _id: id });
      if (!current) return undefined;
      const set: Partial<SubscriptionDoc> = { ...columns, updated_at: now };
      if (patch.url !== undefined) set.url = patch.url;
      if (patch.events !== undefined) set.events = patch.events;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.active === true)
        Object.assign(set, { active: true, failure_streak: 0, disabled_reason: null, disabled_at: null });
      if (patch.active === false && current.active)
        Object.assign(set, { active: false, disabled_reason: 'by_owner', disabled_at: now });
      const doc = await c.subscriptions.findOneAndUpdate(
        { ...scope, _id: id },
        { $set: set },
        { returnDocument: 'after' },
      );
      return doc ? subscriptionRowOf(doc) : undefined;
    },
    async remove(scope, id) {
      const { deletedCount } = await c.subscriptions.deleteOne({ ...scope, _id: id });
      if (!deletedCount) return false;
      await deleteLogOf(c, [id]);
      return true;
    },
    removeAll: (scope) => deleteMongoSubscriptionsOf(c, scope),
    async rotateSecret(scope, id, overlapMs) {
      const current = await c.subscriptions.findOne({ ...scope, _id: id });
      if (!current) return undefined;
      const now = new Date();
      // Compare-and-set on the secret: two rotations at once do not both keep the same previous one.
      const doc = await c.subscriptions.findOneAndUpdate(
        { ...scope, _id: id, secret: current.secret },
        {
          $set: {
            previous_secret: current.secret,
            previous_secret_expires_at: new Date(now.getTime() + overlapMs),
            secret: newWebhookSecret(),
            updated_at: now,
          },
        },
        { returnDocument: 'after' },
      );
      return doc ? subscriptionRowOf(doc) : undefined;
    },
    async insertPing(subscriptionId, scope: Scope) {
      const at = new Date();
      const messageId = randomUUID();
      const body = {
        type: PING_KIND,
        timestamp: at.toISOString(),
        data: { subscription_id: subscriptionId },
      };
      await c.messages.insertOne({
        _id: messageId,
        kind: PING_KIND,
        scope,
        body: JSON.stringify(body),
        created_at: at,
      });
      const doc: DeliveryDoc = {
        ...newDelivery(subscriptionId, messageId, PING_KIND, at),
        _id: randomUUID(),
      };
      await c.deliveries.insertOne(doc);
      return deliveryRowOf(doc);
    },
    async listDeliveries(subscriptionId, filter, page) {
      const where: Filter<DeliveryDoc> = {
        subscription_id: subscriptionId,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.kind ? { kind: filter.kind } : {}),
      };
      const [docs, total] = await Promise.all([
        c.deliveries
          .find(where)
          .sort({ created_at: -1, _id: -1 })
          .skip((page.page - 1) * page.per_page)
          .limit(page.per_page)
          .toArray(),
        c.deliveries.countDocuments(where),
      ]);
      return { rows: docs.map(deliveryRowOf), total };
    },
    async findDelivery(subscriptionId, deliveryId) {
      const doc = await c.deliveries.findOne({ _id: deliveryId, subscription_id: subscriptionId });
      if (!doc) return undefined;
      const [message, attempts] = await Promise.all([
        c.messages.findOne({ _id: doc.message_id }),
        c.attempts.find({ delivery_id: deliveryId }).sort({ attempted_at: 1, _id: 1 }).toArray(),
      ]);
      return {
        row: deliveryRowOf(doc),
        body: message?.body ?? '',
        attempts: attempts.map((a) => ({
          attempted_at: a.attempted_at,
          response_status: a.response_status,
          duration_ms: a.duration_ms,
          response_body: a.response_body,
          error: a.error,
        })),
      };
    },
    async redeliver(subscriptionId, deliveryId) {
      const mine = { _id: deliveryId, subscription_id: subscriptionId };
      const doc = await c.deliveries.findOne(mine);
      if (!doc) return undefined;
      await restart(doc, new Date());
      const now = await c.deliveries.findOne(mine);
      return now ? deliveryRowOf(now) : undefined;
    },
    async redeliverFailedSince(subscriptionId, since) {
      const failed = await c.deliveries
        .find({ subscription_id: subscriptionId, status: 'failed', created_at: { $gte: since } })
        .toArray();
      const now = new Date();
      let count = 0;
      for (const d of failed) count += (await restart(d, now)).modifiedCount;
      return count;
    },
  };
}

/** A new pending delivery of a message to a subscription, due `at`, not leased. */
export const newDelivery = (
  subscriptionId: string,
  messageId: string,
  kind: string,
  at: Date,
): Omit<DeliveryDoc, '_id'> => ({
  subscription_id: subscriptionId,
  message_id: messageId,
  kind,
  status: 'pending',
  attempts: 0,
  round_start: 0,
  next_attempt_at: at,
  lock_token: null,
  locked_until: null,
  last_attempt_at: null,
  response_status: null,
  duration_ms: null,
  response_body: null,
  error: null,
  created_at: at,
});

/**
 * Deletes the deliveries and attempts of some subscriptions, one equality filter per
 * subscription: FerretDB answers `{subscription_id: x}` from its index but scans the whole
 * collection for `{$in: [...]}` (12,000 deliveries: 17 ms against 498 ms; twenty deletes at
 * once 0.4 s against 4.1 s, which held issue 31's deletions past the client's timeout).
 */
async function deleteLogOf(c: WebhookCollections, subscriptionIds: string[]): Promise<void> {
  for (const id of subscriptionIds) {
    await c.deliveries.deleteMany({ subscription_id: id });
    await c.attempts.deleteMany({ subscription_id: id });
  }
}

/** Deletes every subscription of `scope` with its delivery log; resolves with how many subscriptions went. */
async function deleteMongoSubscriptionsOf(c: WebhookCollections, scope: Scope): Promise<number> {
  const ids = (await c.subscriptions.find(scope, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
  if (!ids.length) return 0;
  await c.subscriptions.deleteMany({ _id: { $in: ids } });
  await deleteLogOf(c, ids);
  return ids.length;
}
