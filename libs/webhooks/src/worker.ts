import type { Logger } from '@fieldhouse/logger';
import type { ExchangeName } from '@fieldhouse/contracts';
import { startConsumer, type Broker } from '@fieldhouse/messaging';
import { FairQueue } from './fair-queue.ts';
import { DEFAULT_RETRY_SCHEDULE_MS, retryDelayMs } from './schedule.ts';
import { delivered, type AttemptResult, type WebhookSender } from './sender.ts';
import { signatureHeaders } from './signing.ts';
import {
  PING_KIND,
  type AttemptOutcome,
  type AttemptPlan,
  type DeliveryJob,
  type DisabledSubscription,
  type FanOutAdmission,
  type WebhookEvent,
  type WebhookStore,
} from './types.ts';

/** Routing keys of the events to deliver: `webhook.<kind>` on the service's exchange. */
const WEBHOOK_ROUTING_PREFIX = 'webhook.';

export interface WebhookWorkerOptions {
  broker: Broker;
  store: WebhookStore;
  sender: WebhookSender;
  logger: Logger;
  /** The service's exchange, on which its outbox publishes `webhook.<kind>` events. */
  exchange: ExchangeName;
  /** Prefix of the two queues: `<prefix>.webhooks` (events to fan out) and `<prefix>.webhook-deliveries`. */
  queuePrefix: string;
  /** Delays before each retry, ms (default {@link DEFAULT_RETRY_SCHEDULE_MS}). */
  retryScheduleMs?: number[];
  /** Deliveries failed for good in a row after which the subscription is disabled (default 5). */
  disableAfter?: number;
  /** Attempts in flight at once per subscription in this process (default 8; as many more may wait). */
  perSubscriptionConcurrency?: number;
  /**
   * Attempts in flight at once per owner (the subscriptions' creator, {@link AttemptPlan.owner})
   * in this process, whatever its subscriptions and scopes (default 16; as many more may wait):
   * one owner's slow or dead receivers hold at most this share of `prefetch`, and the sender
   * opens at most this many connections per owner and origin.
   */
  perOwnerConcurrency?: number;
  /** Delivery jobs held at once by this process (default 128). */
  prefetch?: number;
  /**
   * Events fanned out at once by this process (default 128): each waits for its statement and
   * for RabbitMQ's confirms of its jobs, so fewer leave the database idle under load
   * (docs/benchmarks.md, "Webhooks": 32 held the queue at 590 deliveries/s with a p99 of 0.9 s at 500/s).
   */
  fanOutPrefetch?: number;
  /**
   * Events fanned out at once by this process, of those held (default `fanOutPrefetch`): the
   * others wait their turn, taken in turn by scope (the poll, form or event they belong to), so
   * one scope's burst delays another's event by a few fan-outs, not by the whole burst. Lower it
   * for a store that queues concurrent writes (the polls worker on FerretDB: 8).
   */
  fanOutConcurrency?: number;
  /** How often due retries and lost jobs are looked for, ms (default 1,000). */
  pollIntervalMs?: number;
  /** How long the delivery log keeps a message, days (default 30). */
  retentionDays?: number;
  /** Longest attempt (the sender's total time limit), ms; the attempt's lease outlasts it. Default 10,000. */
  attemptTimeoutMs?: number;
  /** Called once when a delivery result disables a subscription (410, or failing): e-mail its owner. */
  onDisabled?: (subscription: DisabledSubscription) => Promise<void>;
}

/** The tunable part of {@link WebhookWorkerOptions}, as a service's worker wrapper takes it (`webhookWorkerSettings` gives most). */
export type WebhookDeliverySettings = Pick<
  WebhookWorkerOptions,
  | 'sender'
  | 'retryScheduleMs'
  | 'disableAfter'
  | 'attemptTimeoutMs'
  | 'pollIntervalMs'
  | 'perSubscriptionConcurrency'
  | 'perOwnerConcurrency'
>;

/** The next poll round comes this soon (ms) after one that claimed deliveries. */
const BACKLOG_POLL_MS = 100;

/** A queued job is re-queued by the scheduler only when it was not attempted within this time. */
const QUEUED_LEASE_MS = 5 * 60_000;

/**
 * The delivery worker of one service (docs/webhooks.md, "Deliveries"):
 * - consumes the service's `webhook.<kind>` events (written with the change, through the outbox),
 *   records one delivery per subscription that takes it (leased), and makes their first
 *   attempts at once, up to `prefetch` under way (beyond that it queues a job per delivery, as
 *   the poll does for retries, redeliveries, pings and lapsed leases);
 * - consumes the delivery jobs; every attempt signs the frozen body (Standard Webhooks), POSTs it
 *   through the SSRF-guarded sender, and records the attempt; a 2xx is success, 410 disables the
 *   subscription, anything else is retried on the schedule (same `webhook-id` every time), and
 *   `disableAfter` deliveries failed for good in a row disable it too;
 * - polls for due retries and jobs lost on the way (a worker killed mid-attempt: its lease
 *   lapses, the delivery is queued again), so at-least-once holds across crashes;
 * - holds at most `perSubscriptionConcurrency` attempts and as many waiting per subscription,
 *   and `perOwnerConcurrency` and as many waiting per owner (the subscriptions' creator);
 *   beyond that a job is put back for a few seconds, so one slow endpoint, or one owner's many,
 *   never fills the worker's slots or the sender's sockets and never delays other owners.
 */
export async function startWebhookWorker(
  opts: WebhookWorkerOptions,
): Promise<{ close: () => Promise<void> }> {
  const { broker, store, sender, logger } = opts;
  const schedule = opts.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
  const disableAfter = opts.disableAfter ?? 5;
  const perSubscription = opts.perSubscriptionConcurrency ?? 8;
  const perOwner = opts.perOwnerConcurrency ?? 16;
  // A job may wait for one round of its subscription's attempts, then make its own.
  const attemptLeaseMs = 2 * (opts.attemptTimeoutMs ?? 10_000) + 15_000;
  const deliveryQueue = `${opts.queuePrefix}.webhook-deliveries`;
  const slots = new DeliverySlots(perSubscription, perOwner);
  // Jobs held from the queue, and attempts started by the fan-out: at most this many of each.
  const directLimit = opts.prefetch ?? 128;
  // Attempts under way, awaited on close so their results are recorded before the store closes.
  const inFlight = new Set<Promise<void>>();

  const queueJobs = async (jobs: DeliveryJob[]) => {
    await Promise.all(
      jobs.map((job) =>
        broker.sendToQueue(
          broker.name(deliveryQueue),
          Buffer.from(JSON.stringify(jobEnvelope(opts.exchange, job))),
          {
            contentType: 'application/json',
            messageId: `${job.delivery_id}:${job.token}`,
          },
        ),
      ),
    );
  };

  const outcomeOf = (plan: AttemptPlan, result: AttemptResult): AttemptOutcome => {
    if (delivered(result)) return { next: 'succeeded' };
    if (result.status === 410) return { next: 'failed', gone: true, countsAsFailure: true };
    if (result.blocked) return { next: 'failed', gone: false, countsAsFailure: true };
    const delay = retryDelayMs(schedule, plan.roundAttempts + 1);
    return delay === undefined
      ? { next: 'failed', gone: false, countsAsFailure: true }
      : { next: 'retry', at: new Date(Date.now() + delay) };
  };

  /** Sends an attempt (the part that holds a slot and a connection); resolves with what to record. */
  const send = async (plan: AttemptPlan) => {
    const at = new Date();
    // A disabled subscription gets pings only: anything else is logged as not sent, for good.
    const sends = plan.active || plan.kind === PING_KIND;
    const result: AttemptResult = sends
      ? await sender.send(
          plan.url,
          { ...signatureHeaders(plan.messageId, at, plan.body, plan.secrets) },
          plan.body,
          plan.owner,
        )
      : {
          status: null,
          durationMs: 0,
          body: null,
          error: 'The subscription is disabled: nothing was sent.',
          blocked: false,
        };
    return { at, sends, result };
  };

  /** Records a sent attempt under its lease, and tells the owner if it disabled the subscription. */
  const record = async (plan: AttemptPlan, { at, sends, result }: Awaited<ReturnType<typeof send>>) => {
    const outcome: AttemptOutcome = sends
      ? outcomeOf(plan, result)
      : { next: 'failed', gone: false, countsAsFailure: false };
    const disabled = await store.finishAttempt(plan, { at, ...result }, outcome, disableAfter);
    if (disabled) {
      logger.warn('webhook subscription disabled', { subscription: disabled.id, reason: disabled.reason });
      await opts.onDisabled?.(disabled).catch((err: unknown) =>
        logger.error('could not tell the owner of a disabled webhook subscription', {
          err,
          subscription: disabled.id,
        }),
      );
    }
  };

  /**
   * Runs an attempt under its lease within its subscription's and its owner's slots; beyond them
   * the delivery is put back for a few seconds (its lease given up), so it never waits behind a
   * slow endpoint or another owner's. Tracked until it ends, so `close` can wait for it.
   */
  const run = (plan: AttemptPlan): Promise<void> => track(start(plan) ?? putBack([plan]));

  /** Starts an attempt within its slots (it may wait its turn there); undefined when they are full. */
  const start = (plan: AttemptPlan): Promise<void> | undefined => {
    const slot = slots.acquire(plan.owner, plan.subscriptionId);
    return slot && attempt(plan, slot);
  };

  /** Makes an attempt once `slot` (acquired for its owner and subscription) resolves, then gives it back. */
  const attempt = async (plan: AttemptPlan, slot: Promise<void>): Promise<void> => {
    let sent: Awaited<ReturnType<typeof send>>;
    try {
      await slot;
      sent = await send(plan);
    } finally {
      // The slot bounds what waits on receivers (and their connections); recording is the
      // database's work, bounded by its pool, so the next attempt need not wait for it.
      slots.release(plan.owner, plan.subscriptionId);
    }
    await record(plan, sent);
  };

  /** Gives deliveries back for 2–4 s (one write for those of a fan-out). */
  const putBack = (plans: AttemptPlan[]) => store.defer(plans, 2_000 + Math.round(Math.random() * 2_000));

  /** Tracks work until it ends, so `close` can wait for it. */
  const track = (work: Promise<void>): Promise<void> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };
  const lapse = (err: unknown) =>
    logger.warn('webhook attempt failed; its lease will lapse and the poll retry it', { err });

  const deliveries = await startConsumer(broker, {
    queue: deliveryQueue,
    bindings: [],
    prefetch: directLimit,
    retryDelaysMs: [1_000, 5_000],
    logger,
    handler: async (message) => {
      const plan = await store.startAttempt(message.data as DeliveryJob, attemptLeaseMs);
      if (!plan) return; // delivered, rescheduled or taken by another job meanwhile
      await run(plan);
    },
  });

  /**
   * Fans one event out: the store records a delivery per subscription, leased for those this
   * process starts at once (their slots are taken before the write, `admission`) and due in 2–4 s
   * for the others (owner's or subscription's slots full, or `directLimit` attempts under way),
   * which the poll queues then. The first attempts start here, without a job through RabbitMQ
   * (docs/benchmarks.md, "Webhooks"); the event is acknowledged once they are recorded, not sent.
   * A worker that dies meanwhile leaves leases that lapse: the poll finds those deliveries and
   * sends them (same `webhook-id`).
   */
  const fanOutEvent = async (messageId: string, kind: string, at: Date, event: WebhookEvent) => {
    // The slots taken for the deliveries about to be recorded, by subscription (one each).
    const reserved = new Map<string, { owner: string; slot: Promise<void> }>();
    const admission: FanOutAdmission = {
      deferMs: 2_000 + Math.round(Math.random() * 2_000),
      admit: (owner, subscription) => {
        if (inFlight.size + reserved.size >= directLimit) return false;
        const slot = slots.acquire(owner, subscription);
        if (!slot) return false;
        reserved.set(subscription, { owner, slot });
        return true;
      },
    };
    // A slot taken for a delivery that is not attempted here (recorded before, or the write
    // failed) is given back once it is held.
    const giveBack = () => {
      for (const [subscription, r] of reserved) void r.slot.then(() => slots.release(r.owner, subscription));
      reserved.clear();
    };
    let plans: AttemptPlan[];
    try {
      plans = await store.fanOut(messageId, kind, at, event, attemptLeaseMs, admission);
    } catch (err) {
      giveBack();
      throw err;
    }
    // A store that records every delivery leased (it ignores `admission`, as the PostgreSQL one
    // does) gets the slots taken now; beyond `directLimit` a delivery gets a job holding its
    // lease (the consumer takes it over), and those whose slots are full are put back together,
    // in one write.
    const overflow: DeliveryJob[] = [];
    const full: AttemptPlan[] = [];
    for (const plan of plans) {
      const r = reserved.get(plan.subscriptionId);
      reserved.delete(plan.subscriptionId);
      if (r) {
        void track(attempt(plan, r.slot)).catch(lapse);
        continue;
      }
      if (inFlight.size >= directLimit) {
        overflow.push({ delivery_id: plan.deliveryId, token: plan.token });
        continue;
      }
      const started = start(plan);
      if (started) void track(started).catch(lapse);
      else full.push(plan);
    }
    giveBack();
    if (full.length) void track(putBack(full)).catch(lapse);
    // Recorded: a job that cannot be queued now is queued by the poll once its lease lapses.
    await queueJobs(overflow).catch((err: unknown) =>
      logger.warn('could not queue webhook deliveries; the poll will', { err }),
    );
  };

  const fanOutPrefetch = opts.fanOutPrefetch ?? 128;
  const fanOuts = new FairQueue(opts.fanOutConcurrency ?? fanOutPrefetch);
  const fanOut = await startConsumer(broker, {
    queue: `${opts.queuePrefix}.webhooks`,
    bindings: [{ exchange: opts.exchange, pattern: `${WEBHOOK_ROUTING_PREFIX}#` }],
    prefetch: fanOutPrefetch,
    logger,
    handler: async (message) => {
      const kind = message.type.slice(WEBHOOK_ROUTING_PREFIX.length);
      const event = message.data as WebhookEvent;
      await fanOuts.run(JSON.stringify(event.scope ?? null), () =>
        fanOutEvent(message.id, kind, new Date(message.time), event),
      );
    },
  });

  let stopped = false;
  let polling: Promise<void> | undefined;
  let lastPrune = 0;
  /** One round: queues the due deliveries (of owners with a free slot); resolves with how many. */
  const poll = async () => {
    let claimed = 0;
    for (;;) {
      const jobs = await store.claimDue(500, QUEUED_LEASE_MS, slots.busyOwners());
      claimed += jobs.length;
      if (jobs.length) await queueJobs(jobs);
      if (jobs.length < 500 || stopped) break;
    }
    if (Date.now() - lastPrune > 3_600_000) {
      lastPrune = Date.now();
      const pruned = await store.prune(new Date(Date.now() - (opts.retentionDays ?? 30) * 86_400_000));
      if (pruned) logger.info('webhook delivery log pruned', { messages: pruned });
    }
    return claimed;
  };
  // A round that found work is followed by another soon (an owner's backlog is claimed a slots'
  // worth at a time, as its slots free up), else by the next at the poll interval.
  const tick = () => {
    if (polling || stopped) return;
    polling = poll()
      .then((claimed) => {
        if (claimed && !stopped) setTimeout(tick, BACKLOG_POLL_MS).unref();
      })
      .catch((err: unknown) => {
        logger.warn('webhook poll failed; will retry', { err });
      })
      .finally(() => (polling = undefined));
  };
  const timer = setInterval(tick, opts.pollIntervalMs ?? 1_000);
  timer.unref();

  return {
    close: async () => {
      stopped = true;
      clearInterval(timer);
      await polling;
      await fanOut.close();
      await deliveries.close();
      // Each attempt ends within the sender's time limit; its result is recorded (a job whose
      // channel closed meanwhile is queued again by the poll once its lease lapses).
      await Promise.allSettled([...inFlight]);
      sender.close();
    },
  };
}

/** A delivery job as an envelope on the delivery queue (the consumer checks the envelope shape). */
const jobEnvelope = (source: ExchangeName, job: DeliveryJob) => ({
  id: `${job.delivery_id}:${job.token}`,
  type: 'webhook.delivery',
  source,
  time: new Date().toISOString(),
  data: job,
});

/**
 * Attempts in flight, counted per subscription and per owner (docs/webhooks.md, "Isolation"):
 * an attempt runs when its subscription has fewer than `perSubscription` running and its owner
 * fewer than `perOwner`; otherwise it waits its turn, up to `perSubscription` waiting per
 * subscription and `perOwner` per owner; {@link acquire} answers undefined beyond that (the
 * caller puts the job back for later). So one owner, however many subscriptions and scopes it
 * has, holds at most `2 × perOwner` of the worker's jobs and `perOwner` of its connections.
 */
class DeliverySlots {
  private readonly perSubscription: number;
  private readonly perOwner: number;
  private readonly subscriptions = new Map<string, { running: number; waiting: number }>();
  private readonly owners = new Map<
    string,
    { running: number; waiting: Array<{ subscription: string; start: () => void }> }
  >();

  /**
   * @param perSubscription attempts running at once per subscription (as many more may wait), ≥ 1
   * @param perOwner attempts running at once per owner (as many more may wait), ≥ 1
   */
  constructor(perSubscription: number, perOwner: number) {
    if (!(perSubscription >= 1 && perOwner >= 1))
      throw new RangeError('delivery slots need at least one per subscription and per owner');
    this.perSubscription = perSubscription;
    this.perOwner = perOwner;
  }

  /**
   * Takes a slot of `owner` and `subscription`: resolves when the attempt may run (at once when
   * both have room), or answers undefined when both its waiting lines are full. Every resolved
   * acquisition must be given back with {@link release}.
   */
  acquire(owner: string, subscription: string): Promise<void> | undefined {
    const o = this.ownerState(owner);
    const s = this.subscriptionState(subscription);
    // Nothing waiting could run now (release starts whatever fits), so this one overtakes nobody.
    if (o.running < this.perOwner && s.running < this.perSubscription) {
      o.running++;
      s.running++;
      return Promise.resolve();
    }
    if (o.waiting.length >= this.perOwner || s.waiting >= this.perSubscription) {
      this.forget(owner, subscription);
      return undefined;
    }
    s.waiting++;
    return new Promise((resolve) => o.waiting.push({ subscription, start: resolve }));
  }

  /** Gives back a slot taken by {@link acquire}; the owner's first waiting attempt that now fits starts. */
  release(owner: string, subscription: string): void {
    const o = this.owners.get(owner);
    const s = this.subscriptions.get(subscription);
    if (!o || !s) return;
    o.running--;
    s.running--;
    this.startWaiting(owner);
    this.forget(owner, subscription);
  }

  /** The owners whose running slots are all taken now (their due deliveries would only be put back). */
  busyOwners(): string[] {
    return [...this.owners].filter(([, o]) => o.running >= this.perOwner).map(([owner]) => owner);
  }

  /** Starts the owner's waiting attempts, oldest first, whose subscriptions have room, while the owner has. */
  private startWaiting(owner: string): void {
    const o = this.owners.get(owner)!;
    for (let i = 0; i < o.waiting.length && o.running < this.perOwner;) {
      const next = o.waiting[i]!;
      const s = this.subscriptions.get(next.subscription)!;
      if (s.running >= this.perSubscription) {
        i++;
        continue;
      }
      o.waiting.splice(i, 1);
      s.waiting--;
      o.running++;
      s.running++;
      next.start();
    }
  }

  private ownerState(owner: string) {
    let o = this.owners.get(owner);
    if (!o) this.owners.set(owner, (o = { running: 0, waiting: [] }));
    return o;
  }

  private subscriptionState(subscription: string) {
    let s = this.subscriptions.get(subscription);
    if (!s) this.subscriptions.set(subscription, (s = { running: 0, waiting: 0 }));
    return s;
  }

  /** Drops the counts of an owner and a subscription that have nothing running or waiting. */
  private forget(owner: string, subscription: string): void {
    const o = this.owners.get(owner);
    if (o && o.running === 0 && o.waiting.length === 0) this.owners.delete(owner);
    const s = this.subscriptions.get(subscription);
    if (s && s.running === 0 && s.waiting === 0) this.subscriptions.delete(subscription);
  }
}
