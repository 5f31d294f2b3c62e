import type { Logger } from '@fieldhouse/logger';
import type { ExchangeName } from '@fieldhouse/contracts';
import { startConsumer, type Broker } from '@fieldhouse/messaging';
import { DEFAULT_RETRY_SCHEDULE_MS, retryDelayMs } from './schedule.ts';
import { delivered, type AttemptResult, type WebhookSender } from './sender.ts';
import { signatureHeaders } from './signing.ts';
import {
  PING_KIND,
  type AttemptOutcome,
  type AttemptPlan,
  type DeliveryJob,
  type DisabledSubscription,
  type WebhookEvent,
  type WebhookStore,
} from './types.ts';

/** Routing keys of the events to deliver: `webhook.<kind>` on the service's exchange. */
export const WEBHOOK_ROUTING_PREFIX = 'webhook.';

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
  /** Attempts in flight at once per subscription in this process (default 8). */
  perSubscriptionConcurrency?: number;
  /** Delivery jobs held at once by this process (default 128). */
  prefetch?: number;
  /**
   * Events fanned out at once by this process (default 128): each waits for its statement and
   * for RabbitMQ's confirms of its jobs, so fewer leave the database idle under load
   * (docs/benchmarks.md, "Webhooks": 32 held the queue at 590 deliveries/s with a p99 of 0.9 s at 500/s).
   */
  fanOutPrefetch?: number;
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
>;

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
 * - holds at most `perSubscriptionConcurrency` attempts and as many waiting per subscription;
 *   beyond that a job is put back for a few seconds, so one slow endpoint never fills the
 *   worker's slots and never delays the other subscriptions.
 */
export async function startWebhookWorker(
  opts: WebhookWorkerOptions,
): Promise<{ close: () => Promise<void> }> {
  const { broker, store, sender, logger } = opts;
  const schedule = opts.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
  const disableAfter = opts.disableAfter ?? 5;
  const perSubscription = opts.perSubscriptionConcurrency ?? 8;
  // A job may wait for one round of its subscription's attempts, then make its own.
  const attemptLeaseMs = 2 * (opts.attemptTimeoutMs ?? 10_000) + 15_000;
  const deliveryQueue = `${opts.queuePrefix}.webhook-deliveries`;
  const slots = new SubscriptionSlots(perSubscription);
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

  const attempt = async (plan: AttemptPlan) => {
    const at = new Date();
    // A disabled subscription gets pings only: anything else is logged as not sent, for good.
    const sends = plan.active || plan.kind === PING_KIND;
    const result: AttemptResult = sends
      ? await sender.send(
          plan.url,
          { ...signatureHeaders(plan.messageId, at, plan.body, plan.secrets) },
          plan.body,
        )
      : {
          status: null,
          durationMs: 0,
          body: null,
          error: 'The subscription is disabled: nothing was sent.',
          blocked: false,
        };
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
   * Runs an attempt under its lease within its subscription's slots; beyond them the delivery is
   * put back for a few seconds (its lease given up), so it never waits behind a slow endpoint.
   * Tracked until it ends, so `close` can wait for it.
   */
  const run = (plan: AttemptPlan): Promise<void> => {
    const slot = slots.acquire(plan.subscriptionId);
    const running = slot
      ? (async () => {
          try {
            await slot;
            await attempt(plan);
          } finally {
            slots.release(plan.subscriptionId);
          }
        })()
      : store.defer(plan, 2_000 + Math.round(Math.random() * 2_000));
    inFlight.add(running);
    return running.finally(() => inFlight.delete(running));
  };

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

  const fanOut = await startConsumer(broker, {
    queue: `${opts.queuePrefix}.webhooks`,
    bindings: [{ exchange: opts.exchange, pattern: `${WEBHOOK_ROUTING_PREFIX}#` }],
    prefetch: opts.fanOutPrefetch ?? 128,
    logger,
    handler: async (message) => {
      const kind = message.type.slice(WEBHOOK_ROUTING_PREFIX.length);
      const plans = await store.fanOut(
        message.id,
        kind,
        new Date(message.time),
        message.data as WebhookEvent,
        attemptLeaseMs,
      );
      // First attempts start here, under the fan-out's lease, without a job through RabbitMQ
      // (docs/benchmarks.md, "Webhooks"); the event is acknowledged once they are recorded, not
      // sent. Beyond `directLimit` attempts under way, a delivery gets a job holding that lease
      // (the consumer takes it over). A worker that dies meanwhile leaves leases that lapse: the
      // poll finds those deliveries and sends them (same `webhook-id`).
      const overflow: DeliveryJob[] = [];
      for (const plan of plans) {
        if (inFlight.size < directLimit)
          void run(plan).catch((err: unknown) =>
            logger.warn('webhook attempt failed; its lease will lapse and the poll retry it', { err }),
          );
        else overflow.push({ delivery_id: plan.deliveryId, token: plan.token });
      }
      // Recorded: a job that cannot be queued now is queued by the poll once its lease lapses.
      await queueJobs(overflow).catch((err: unknown) =>
        logger.warn('could not queue webhook deliveries; the poll will', { err }),
      );
    },
  });

  let stopped = false;
  let polling: Promise<void> | undefined;
  let lastPrune = 0;
  const poll = async () => {
    for (;;) {
      const jobs = await store.claimDue(500, QUEUED_LEASE_MS);
      if (jobs.length) await queueJobs(jobs);
      if (jobs.length < 500 || stopped) break;
    }
    if (Date.now() - lastPrune > 3_600_000) {
      lastPrune = Date.now();
      const pruned = await store.prune(new Date(Date.now() - (opts.retentionDays ?? 30) * 86_400_000));
      if (pruned) logger.info('webhook delivery log pruned', { messages: pruned });
    }
  };
  const timer = setInterval(() => {
    if (polling) return;
    polling = poll()
      .catch((err: unknown) => {
        logger.warn('webhook poll failed; will retry', { err });
      })
      .finally(() => (polling = undefined));
  }, opts.pollIntervalMs ?? 1_000);
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
 * Attempts in flight per subscription: up to `limit` run, up to `limit` more wait their turn;
 * {@link acquire} answers undefined beyond that (the caller puts the job back for later).
 */
class SubscriptionSlots {
  private readonly limit: number;
  private readonly state = new Map<string, { running: number; waiting: Array<() => void> }>();

  constructor(limit: number) {
    this.limit = limit;
  }

  acquire(id: string): Promise<void> | undefined {
    let s = this.state.get(id);
    if (!s) this.state.set(id, (s = { running: 0, waiting: [] }));
    if (s.running < this.limit) {
      s.running++;
      return Promise.resolve();
    }
    if (s.waiting.length >= this.limit) return undefined;
    return new Promise((resolve) => s.waiting.push(resolve));
  }

  release(id: string): void {
    const s = this.state.get(id);
    if (!s) return;
    const next = s.waiting.shift();
    if (next) return next(); // the slot passes to the next waiting attempt
    s.running--;
    if (s.running === 0) this.state.delete(id);
  }
}
