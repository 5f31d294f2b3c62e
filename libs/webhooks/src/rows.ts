import type { DeliveryStatus, DisabledReason } from './types.ts';

/** The columns of a subscription scope: `{event_id}`, `{workspace_id}`... */
export type Scope = Record<string, string | number>;

/** What every store keeps of a subscription, whatever its id is called. */
export interface SubscriptionFields {
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failure_streak: number;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A `webhook_subscriptions` row (scope columns besides). */
export interface SubscriptionRow extends SubscriptionFields {
  id: string;
  [scope: string]: unknown;
}

/** What an owner may set on a subscription. */
export interface SubscriptionInput {
  url: string;
  events: string[];
  description?: string | null;
  active?: boolean;
}

/** What every store keeps of a delivery, whatever its id is called. */
export interface DeliveryFields {
  subscription_id: string;
  message_id: string;
  kind: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
}

/** A `webhook_deliveries` row (lease columns besides, never shown by the API). */
export interface DeliveryRow extends DeliveryFields {
  id: string;
}

/** A `webhook_attempts` row. */
export interface AttemptRow {
  attempted_at: Date;
  response_status: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

/** Filters of a delivery list. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  kind?: string;
}

/** A delivery found with the body sent and its attempts, oldest first. */
export interface DeliveryFound {
  row: DeliveryRow;
  attempts: AttemptRow[];
  body: string;
}

/**
 * Where an area keeps its subscriptions and delivery log, as the webhook use cases use it:
 * PostgreSQL ({@link knexWebhookRepository}) or MongoDB ({@link mongoWebhookRepository}). Ids
 * are UUID strings in both. Methods taking a subscription id assume the caller found it in the
 * scope first.
 */
export interface WebhookRepository {
  /**
   * Inserts a subscription in `scope` (with the area's own `columns`) and a new secret. With
   * `limit`, only while fewer than `limit` subscriptions of the scope (active or not) would
   * share an event with it, checked atomically against concurrent creations.
   * @throws SubscriptionLimitError when `limit` is reached: nothing is stored.
   */
  insert(
    scope: Scope,
    input: SubscriptionInput,
    createdBy: number | null,
    columns?: Record<string, unknown>,
    limit?: number,
  ): Promise<SubscriptionRow>;
  /** The subscriptions of `scope`, newest first. */
  list(scope: Scope): Promise<SubscriptionRow[]>;
  /** One subscription of `scope`, or undefined. */
  find(scope: Scope, id: string): Promise<SubscriptionRow | undefined>;
  /**
   * Changes URL, kinds, description, state (and the area's own `columns`); turning it on clears
   * the failure streak and disabled reason, turning it off records `by_owner`. Undefined when absent.
   * With `limit`, a change of the columns that decide which events it takes (area A's
   * `project_ids`) is refused when it would share an event with `limit` others.
   * @throws SubscriptionLimitError when `limit` is reached: nothing is changed.
   */
  update(
    scope: Scope,
    id: string,
    patch: Partial<SubscriptionInput>,
    columns?: Record<string, unknown>,
    limit?: number,
  ): Promise<SubscriptionRow | undefined>;
  /** Deletes a subscription and its delivery log; false when absent. */
  remove(scope: Scope, id: string): Promise<boolean>;
  /** Deletes every subscription of `scope` with their delivery logs (its resource deleted); resolves with how many. */
  removeAll(scope: Scope): Promise<number>;
  /** A new secret; the current one becomes the previous one and keeps signing for `overlapMs`. */
  rotateSecret(scope: Scope, id: string, overlapMs: number): Promise<SubscriptionRow | undefined>;
  /** Records a `ping` message for the subscription and its delivery, due now. */
  insertPing(subscriptionId: string, scope: Scope): Promise<DeliveryRow>;
  /** A page of its deliveries, newest first, with the total matching. */
  listDeliveries(
    subscriptionId: string,
    filter: DeliveryFilter,
    page: { page: number; per_page: number },
  ): Promise<{ rows: DeliveryRow[]; total: number }>;
  /** One delivery of the subscription with its attempts and the body sent. */
  findDelivery(subscriptionId: string, deliveryId: string): Promise<DeliveryFound | undefined>;
  /**
   * Queues a delivery again, due now, as a new round of the retry schedule (same message, same
   * `webhook-id`). A delivery being attempted right now (pending under a live lease) is left as
   * it is, so the attempt's result is not lost. Undefined when absent.
   */
  redeliver(subscriptionId: string, deliveryId: string): Promise<DeliveryRow | undefined>;
  /** Queues again every failed delivery created at or after `since`; resolves with how many. */
  redeliverFailedSince(subscriptionId: string, since: Date): Promise<number>;
}

/**
 * A subscription refused because its scope already has as many as allowed (docs/webhooks.md,
 * "Isolation"): the repository stored nothing. The use cases answer it with the area's 422.
 */
export class SubscriptionLimitError extends Error {
  /** The most subscriptions allowed. */
  readonly limit: number;

  constructor(limit: number) {
    super(`at most ${limit} webhook subscriptions here`);
    this.name = 'SubscriptionLimitError';
    this.limit = limit;
  }
}
