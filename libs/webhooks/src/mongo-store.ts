import { randomUUID } from 'node:crypto';
import {
  MongoBulkWriteError,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type OptionalUnlessRequiredId,
} from 'mongodb';
import {
  webhookCollections,
  type DeliveryDoc,
  type SubscriptionDoc,
  type WebhookCollections,
} from './mongo-documents.ts';
import { newDelivery } from './mongo-subscriptions.ts';
import { PER_OWNER_CLAIM, PER_SUBSCRIPTION_CLAIM, planOf, type PlanRow } from './store-common.ts';
import {
  ownerOf,
  type AttemptOutcome,
  type AttemptPlan,
  type AttemptRecord,
  type DeliveryJob,
  type DisabledSubscription,
  type FanOutAdmission,
  type WebhookEvent,
  type WebhookStore,
} from './types.ts';

/** Due now, and no attempt holds it (or the lease it was taken with has lapsed). */
const dueAndFree = (now: Date): Filter<DeliveryDoc> => ({
  status: 'pending',
  next_attempt_at: { $lte: now },
  $or: [{ locked_until: null }, { locked_until: { $lt: now } }],
});

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** MongoDB's duplicate key error. */
const DUPLICATE_KEY = 11000;

/**
 * Inserts `docs` (unordered) and resolves with the indexes of those it created; one a unique
 * index already holds (an event fanned out again) is skipped, any other failure rejects. An
 * insert, not an upsert, on purpose: FerretDB on PostgreSQL ran 30 fan-outs of 20 upserts in
 * 2.08 s and the same as inserts in 70 ms (docs/benchmarks.md, "The embedded store").
 */
async function insertNew<T extends Document>(collection: Collection<T>, docs: T[]): Promise<Set<number>> {
  const all = new Set(docs.map((_, i) => i));
  try {
    await collection.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
    return all;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    if (!errors.length || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    for (const e of errors) all.delete(e.index);
    return all;
  }
}

/** Updates by `_id` sent at once (`claimDue`, `defer`): one each, as FerretDB scans for `$in`. */
const CLAIM_BATCH = 16;

/** The plan columns of a delivery of subscription `s`: its previous secret while its overlap lasts. */
const planRow = (
  deliveryId: string,
  s: Pick<
    SubscriptionDoc,
    '_id' | 'url' | 'secret' | 'active' | 'previous_secret' | 'previous_secret_expires_at' | 'created_by'
  >,
  now: Date,
): PlanRow => ({
  id: deliveryId,
  subscription_id: s._id,
  url: s.url,
  secret: s.secret,
  active: s.active,
  previous_secret:
    s.previous_secret && s.previous_secret_expires_at && s.previous_secret_expires_at > now
      ? s.previous_secret
      : null,
  created_by: s.created_by ?? null,
});
/**
 * The delivery log of a MongoDB service (the polls service), on the collections of
 * `webhookCollections`: the MongoDB counterpart of {@link KnexWebhookStore}, with the same
 * guarantees from single-document atomic writes (FerretDB has no multi-document transactions):
 * - fan-out is idempotent: the message is upserted by its id, and each delivery is upserted by
 *   (subscription, message) under a unique index, so a repeated fan-out adds nothing and queues
 *   only what it created;
 * - an attempt takes the delivery's lease with one `findOneAndUpdate`, and its result is written
 *   only under that lease, so a job queued twice is attempted once and a late result is dropped;
 * - the failure streak is counted by compare-and-set, disabling the subscription in the same
 *   write, so concurrent failures all count and its owner is told once; within one process the
 *   counts of a subscription also run one at a time (FerretDB's conditional updates are not
 *   atomic against each other).
 * `scopeFilter` maps an event's scope to the subscriptions it reaches (`{poll_id}`).
 */
export class MongoWebhookStore implements WebhookStore {
  private readonly c: WebhookCollections;
  private readonly scopeFilter: (scope: WebhookEvent['scope']) => Record<string, unknown>;
  /** The failure count under way for each subscription (see `countFailure`). */
  private readonly streakCounts = new Map<string, Promise<void>>();

  constructor(db: Db, scopeFilter: (scope: WebhookEvent['scope']) => Record<string, unknown>) {
    this.c = webhookCollections(db);
    this.scopeFilter = scopeFilter;
  }

  async fanOut(
    messageId: string,
    kind: string,
    at: Date,
    event: WebhookEvent,
    leaseMs: number,
    admission?: FanOutAdmission,
  ) {
    const body = JSON.stringify({ type: kind, timestamp: at.toISOString(), data: event.data });
    await insertNew(this.c.messages, [{ _id: messageId, kind, scope: event.scope, body, created_at: at }]);
    const subscriptions = await this.c.subscriptions
      .find(
        { ...this.scopeFilter(event.scope), active: true, events: kind },
        {
          projection: {
            _id: 1,
            url: 1,
            secret: 1,
            previous_secret: 1,
            previous_secret_expires_at: 1,
            created_by: 1,
          },
        },
      )
      .toArray();
    if (!subscriptions.length) return [];
    const token = randomUUID();
    const now = new Date();
    // Deliveries the worker cannot start now are recorded due later, without a lease: no second
    // write to give them back (a saturated owner's fan-out of 20 would otherwise be 21 writes).
    const admitted = subscriptions.map(
      (s) => !admission || admission.admit(ownerOf(s._id, s.created_by), s._id),
    );
    const docs: DeliveryDoc[] = subscriptions.map((s, i) => ({
      ...newDelivery(s._id, messageId, kind, now),
      _id: randomUUID(),
      ...(admitted[i]
        ? { lock_token: token, locked_until: later(now, leaseMs) }
        : { next_attempt_at: later(now, admission!.deferMs) }),
    }));
    const created = await insertNew(this.c.deliveries, docs);
    return docs.flatMap((d, i) =>
      created.has(i) && admitted[i]
        ? [
            planOf(planRow(d._id, { ...subscriptions[i]!, active: true }, now), {
              messageId,
              kind,
              body,
              scope: event.scope,
              roundAttempts: 0,
              token,
            }),
          ]
        : [],
    );
  }

  async claimDue(limit: number, leaseMs: number, busyOwners: string[] = []): Promise<DeliveryJob[]> {
    const busy = new Set(busyOwners);
    const now = new Date();
    // The busy owners' subscriptions are left out in the query, before the limit: a flooding
    // owner's backlog, oldest first, would otherwise fill every round and starve the others.
    const busyUsers = busyOwners.flatMap((o) => (o.startsWith('user:') ? [Number(o.slice(5))] : []));
    const busySubscriptions = [
      ...busyOwners.flatMap((o) => (o.startsWith('subscription:') ? [o.slice(13)] : [])),
      ...(busyUsers.length
        ? (
            await this.c.subscriptions
              .find({ created_by: { $in: busyUsers } }, { projection: { _id: 1 } })
              .toArray()
          ).map((s) => s._id)
        : []),
    ];
    const due = await this.c.deliveries
      .find(
        busySubscriptions.length
          ? { ...dueAndFree(now), subscription_id: { $nin: busySubscriptions } }
          : dueAndFree(now),
        { projection: { _id: 1, subscription_id: 1 } },
      )
      .sort({ next_attempt_at: 1 })
      .limit(limit * 5)
      .toArray();
    const creators = new Map(
      (
        await this.c.subscriptions
          .find(
            { _id: { $in: [...new Set(due.map((d) => d.subscription_id))] } },
            { projection: { _id: 1, created_by: 1 } },
          )
          .toArray()
      ).map((s) => [s._id, s.created_by ?? null]),
    );
    const perSubscription = new Map<string, number>();
    const perOwner = new Map<string, number>();
    const ids: string[] = [];
    for (const d of due) {
      const n = (perSubscription.get(d.subscription_id) ?? 0) + 1;
      perSubscription.set(d.subscription_id, n);
      const owner = ownerOf(d.subscription_id, creators.get(d.subscription_id));
      if (busy.has(owner)) continue;
      const o = (perOwner.get(owner) ?? 0) + 1;
      perOwner.set(owner, o);
      if (n <= PER_SUBSCRIPTION_CLAIM && o <= PER_OWNER_CLAIM && ids.length < limit) ids.push(d._id);
    }
    if (!ids.length) return [];
    const token = randomUUID();
    // One conditional update per delivery, by `_id`: FerretDB finds `{_id: {$in}}` by scanning
    // every pending delivery (the whole backlog of a flooded owner, each round).
    const taken: string[] = [];
    for (let i = 0; i < ids.length; i += CLAIM_BATCH) {
      await Promise.all(
        ids.slice(i, i + CLAIM_BATCH).map(async (id) => {
          const { modifiedCount } = await this.c.deliveries.updateOne(
            { _id: id, ...dueAndFree(now) },
            { $set: { lock_token: token, locked_until: later(now, leaseMs) } },
          );
          if (modifiedCount) taken.push(id);
        }),
      );
    }
    return taken.map((id) => ({ delivery_id: id, token }));
  }

  async startAttempt(job: DeliveryJob, leaseMs: number): Promise<AttemptPlan | undefined> {
    const now = new Date();
    const token = randomUUID();
    const d = await this.c.deliveries.findOneAndUpdate(
      {
        _id: job.delivery_id,
        status: 'pending',
        next_attempt_at: { $lte: now },
        $or: [{ lock_token: job.token }, { locked_until: null }, { locked_until: { $lt: now } }],
      },
      { $set: { lock_token: token, locked_until: later(now, leaseMs) } },
      { returnDocument: 'after' },
    );
    if (!d) return undefined;
    const [s, m] = await Promise.all([
      this.c.subscriptions.findOne({ _id: d.subscription_id }),
      this.c.messages.findOne({ _id: d.message_id }),
    ]);
    if (!s || !m) {
      // Its subscription or message is gone (deleted, pruned): nothing left to send.
      await this.c.deliveries.deleteOne({ _id: d._id, lock_token: token });
      return undefined;
    }
    return planOf(planRow(d._id, s, now), {
      messageId: d.message_id,
      kind: d.kind,
      body: m.body,
      scope: m.scope,
      roundAttempts: d.attempts - d.round_start,
      token,
    });
  }

  async finishAttempt(
    plan: AttemptPlan,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined> {
    const kept = {
      response_status: attempt.status,
      duration_ms: attempt.durationMs,
      response_body: attempt.body,
      error: attempt.error,
    };
    const { modifiedCount } = await this.c.deliveries.updateOne(
      { _id: plan.deliveryId, lock_token: plan.token },
      {
        $set: {
          status: outcome.next === 'retry' ? 'pending' : outcome.next,
          next_attempt_at: outcome.next === 'retry' ? outcome.at : null,
          last_attempt_at: attempt.at,
          ...kept,
          lock_token: null,
          locked_until: null,
        },
        $inc: { attempts: 1 },
      },
    );
    if (!modifiedCount) return undefined; // the lease lapsed and another attempt took it
    await this.c.attempts.insertOne({
      _id: randomUUID(),
      delivery_id: plan.deliveryId,
      subscription_id: plan.subscriptionId,
      attempted_at: attempt.at,
      ...kept,
      duration_ms: attempt.durationMs,
    });
    if (outcome.next === 'succeeded')
      await this.c.subscriptions.updateOne(
        { _id: plan.subscriptionId, failure_streak: { $ne: 0 } },
        { $set: { failure_streak: 0 } },
      );
    if (outcome.next !== 'failed' || (!outcome.gone && !outcome.countsAsFailure)) return undefined;
    return this.countFailure(plan, outcome.gone, disableAfter);
  }

  /**
   * Counts a delivery failed for good; disables the subscription on 410 or after `disableAfter`
   * in a row. The counts of one subscription run one after the other in this process:
   * FerretDB does not make a conditional update atomic against a concurrent one, so two
   * deliveries failing at the same moment could both pass the compare-and-set below and count
   * once (seen as a rare failure of the worker test that disables after two failures).
   */
  private countFailure(
    plan: AttemptPlan,
    gone: boolean,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined> {
    const id = plan.subscriptionId;
    const counted = (this.streakCounts.get(id) ?? Promise.resolve()).then(() =>
      this.countFailureNow(plan, gone, disableAfter),
    );
    const settled = counted.then(
      () => undefined,
      () => undefined,
    );
    this.streakCounts.set(id, settled);
    void settled.then(() => {
      if (this.streakCounts.get(id) === settled) this.streakCounts.delete(id);
    });
    return counted;
  }

  private async countFailureNow(
    plan: AttemptPlan,
    gone: boolean,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined> {
    // A compare-and-set on the streak, not `$inc`: two deliveries failing for good at the same
    // moment (their retries run in step) must count twice on every store, FerretDB included.
    for (let tries = 0; tries < 20; tries++) {
      const s = await this.c.subscriptions.findOne(
        { _id: plan.subscriptionId },
        { projection: { failure_streak: 1, active: 1, url: 1 } },
      );
      if (!s) return undefined;
      const streak = s.failure_streak + 1;
      const disable = s.active && (gone || streak >= disableAfter);
      const reason = gone ? 'gone' : 'failing';
      const now = new Date();
      const { modifiedCount } = await this.c.subscriptions.updateOne(
        { _id: s._id, failure_streak: s.failure_streak, active: s.active },
        {
          $set: disable
            ? {
                failure_streak: streak,
                active: false,
                disabled_reason: reason,
                disabled_at: now,
                updated_at: now,
              }
            : { failure_streak: streak },
        },
      );
      if (modifiedCount) return disable ? { id: s._id, url: s.url, reason, scope: plan.scope } : undefined;
    }
    throw new Error(`the failure streak of webhook ${plan.subscriptionId} kept changing; not counted`);
  }

  async defer(plans: AttemptPlan[], delayMs: number): Promise<void> {
    // One update by `_id` each (a few at a time): FerretDB answers `{_id: x}` from its index but
    // scans every delivery for `{_id: {$in}}` (mongo-subscriptions.ts, `deleteLogOf`).
    const at = later(new Date(), delayMs);
    for (let i = 0; i < plans.length; i += CLAIM_BATCH)
      await Promise.all(
        plans
          .slice(i, i + CLAIM_BATCH)
          .map((p) =>
            this.c.deliveries.updateOne(
              { _id: p.deliveryId, lock_token: p.token },
              { $set: { lock_token: null, locked_until: null, next_attempt_at: at } },
            ),
          ),
      );
  }

  async prune(before: Date): Promise<number> {
    const { deletedCount } = await this.c.messages.deleteMany({ created_at: { $lt: before } });
    await this.c.deliveries.deleteMany({ created_at: { $lt: before } });
    await this.c.attempts.deleteMany({ attempted_at: { $lt: before } });
    return deletedCount;
  }
}
