/** The kind of the test event sent by `POST .../webhooks/{id}/ping`: delivered even when not subscribed. */
export const PING_KIND = 'ping';

/** Where a delivery stands: waiting for an attempt (first or retry), delivered, or given up. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** Why a subscription stopped receiving: its owner turned it off, it answered 410, or it kept failing. */
export type DisabledReason = 'by_owner' | 'gone' | 'failing';

/**
 * An event to deliver, as the service's outbox carries it (routing key `webhook.<kind>`):
 * `scope` says which subscriptions may take it (`{event_id}`, `{workspace_id, project_id}`,
 * `{poll_id}`), `data` is the payload's `data`, frozen when the change was written.
 */
export interface WebhookEvent {
  scope: Record<string, string | number>;
  data: unknown;
}

/** One message in the delivery queue: a delivery and the lease token it was queued with. */
export interface DeliveryJob {
  delivery_id: string;
  token: string;
}

/** What an attempt needs, read when the attempt takes the delivery's lease. */
export interface AttemptPlan {
  deliveryId: string;
  subscriptionId: string;
  /** The `webhook-id` header: the message id, the same on every attempt. */
  messageId: string;
  kind: string;
  url: string;
  /** The current secret, then the previous one while its overlap lasts. */
  secrets: string[];
  /** The exact bytes sent, frozen at fan-out. */
  body: string;
  /** The message's scope (`{event_id}`, `{workspace_id, project_id}`...): whose owners to tell if it gets disabled. */
  scope: WebhookEvent['scope'];
  /** Attempts of this round made before this one (retry schedule position). */
  roundAttempts: number;
  active: boolean;
  /** The lease this attempt holds; the result is recorded only under it. */
  token: string;
  /**
   * Whose share of the worker's slots and sockets the attempt takes (docs/webhooks.md,
   * "Isolation"): `user:<id>` of the user who created the subscription, or `subscription:<id>`
   * for one with no creator recorded. See {@link ownerOf}.
   */
  owner: string;
}

/**
 * The owner key of a subscription's attempts: its creator (`user:<created_by>`), whatever scope
 * (poll, workspace, event) it is in, since one user can make scopes at will but not users; a
 * subscription with no creator recorded is its own owner.
 */
export const ownerOf = (subscriptionId: string, createdBy: number | null | undefined): string =>
  createdBy === null || createdBy === undefined ? `subscription:${subscriptionId}` : `user:${createdBy}`;

/** A subscription just disabled by a delivery result, for the owner's e-mail. */
export interface DisabledSubscription {
  id: string;
  url: string;
  reason: Exclude<DisabledReason, 'by_owner'>;
  scope: WebhookEvent['scope'];
}

/** An attempt's result as the log keeps it. */
export interface AttemptRecord {
  at: Date;
  status: number | null;
  durationMs: number;
  body: string | null;
  error: string | null;
}

/**
 * How a delivery goes on after an attempt: delivered; retried at a time; failed for good
 * (`gone`: the receiver answered 410, which disables the subscription).
 */
export type AttemptOutcome =
  | { next: 'succeeded' }
  | { next: 'retry'; at: Date }
  | { next: 'failed'; gone: boolean; countsAsFailure: boolean };

/**
 * Which new deliveries of a fan-out start at once (docs/webhooks.md, "Isolation"). `admit` is
 * asked once per delivery about to be recorded, with its owner ({@link ownerOf}) and
 * subscription, before the write: true when the worker starts it now (the delivery is leased,
 * and its plan returned unless it was recorded before), false when its owner's or
 * subscription's slots are full (the delivery is recorded due in `deferMs`, ms, without a lease,
 * and the worker's poll queues it then). So a saturated owner's fan-out costs no write beyond its
 * own inserts. A store may ignore it (every new delivery leased and returned); the worker then
 * puts back what it cannot start.
 */
export interface FanOutAdmission {
  admit(owner: string, subscriptionId: string): boolean;
  deferMs: number;
}

/**
 * Where a service keeps its subscriptions and delivery log, as the delivery worker uses it
 * (a PostgreSQL implementation is {@link KnexWebhookStore}; the polls service has a MongoDB one).
 */
export interface WebhookStore {
  /**
   * Records an event once (by `messageId`) with one pending delivery, due now, for each active
   * subscription of its scope that takes its kind; resolves with the first attempt's plan of
   * each new delivery, already leased for `leaseMs` (empty when the event was already recorded);
   * with `admission`, only of those it admitted (the others are due in its `deferMs`).
   */
  fanOut(
    messageId: string,
    kind: string,
    at: Date,
    event: WebhookEvent,
    leaseMs: number,
    admission?: FanOutAdmission,
  ): Promise<AttemptPlan[]>;
  /**
   * Leases up to `limit` due deliveries whose lease expired or never was: at most
   * `PER_SUBSCRIPTION_CLAIM` (20) per subscription and `PER_OWNER_CLAIM` (32) per owner (the
   * subscriptions' creator, {@link ownerOf}), so an owner's backlog is not claimed again and
   * again while its slots are full, and never crowds out the others. The deliveries of
   * `busyOwners` (owner keys whose attempt slots are all taken in this worker) are left for a
   * later round: claimed now, they would only be put back.
   */
  claimDue(limit: number, leaseMs: number, busyOwners?: string[]): Promise<DeliveryJob[]>;
  /** Takes the delivery for an attempt if the job still holds it (or nobody does) and it is due; else undefined. */
  startAttempt(job: DeliveryJob, leaseMs: number): Promise<AttemptPlan | undefined>;
  /** Records the attempt and the delivery's next state; resolves with a subscription it disabled, if any. */
  finishAttempt(
    plan: AttemptPlan,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined>;
  /**
   * Gives the leases back and makes the deliveries due again in `delayMs`, without counting an
   * attempt (those whose lease another attempt took meanwhile are left alone).
   */
  defer(plans: AttemptPlan[], delayMs: number): Promise<void>;
  /** Deletes messages older than `before` (their deliveries and attempts with them); resolves with how many. */
  prune(before: Date): Promise<number>;
}
