import type { components } from '../../api/generated/polls.ts';

/**
 * The shapes of the webhook API, the same in the three areas (libs/webhooks `api.ts`), taken
 * from the generated client (area B's names; each area adds its scope key — `workspace_id`,
 * `poll_id`, `event_id` — and area A `project_ids`, which the components do not rely on).
 */
type Schemas = components['schemas'];

/** A subscription as the API shows it (never the secret). */
export type Webhook = Omit<Schemas['PollWebhook'], 'poll_id'> & {
  /** Area A only: the projects whose events it takes; null for the whole workspace. */
  project_ids?: number[] | null;
};

/** The creation and rotation answers: the subscription with its `whsec_…` secret, shown once. */
export type WebhookWithSecret = Webhook & { secret: string };

/** One delivery of one event to one subscription (its last attempt's outcome). */
export type Delivery = Schemas['PollWebhookDelivery'];

export type DeliveryStatus = Delivery['status'];

/** A delivery with the body sent and every attempt. */
type DeliveryDetail = Schemas['PollWebhookDeliveryDetail'];

/** One attempt of a delivery, as recorded. */
export type Attempt = DeliveryDetail['attempt_log'][number];

/** What a creation or an edit sends (area A may add `project_ids`). */
export interface WebhookInput {
  url: string;
  events: string[];
  description: string | null;
  project_ids?: number[] | null;
}

/** A page of deliveries (spec 2.1 pagination in all three areas). */
interface DeliveryPage {
  data: Delivery[];
  pagination: { current_page: number; last_page: number; per_page: number; total: number };
}

/**
 * One scope's webhook API (a workspace, a poll or an event), each area's envelope taken off:
 * the components call only this, so they are the same for the three areas.
 */
export interface WebhookApi {
  /** The query key of everything of this scope (`['webhooks', 'poll', id]`). */
  key: readonly unknown[];
  /** The event kinds the area sends, in the order the form lists them. */
  kinds: readonly string[];
  list(): Promise<Webhook[]>;
  create(body: WebhookInput): Promise<WebhookWithSecret>;
  update(webhookId: string, body: Partial<WebhookInput> & { active?: boolean }): Promise<Webhook>;
  remove(webhookId: string): Promise<void>;
  rotate(webhookId: string): Promise<WebhookWithSecret>;
  ping(webhookId: string): Promise<Delivery>;
  deliveries(
    webhookId: string,
    query: { page: number; per_page: number; status?: DeliveryStatus },
  ): Promise<DeliveryPage>;
  delivery(webhookId: string, deliveryId: string): Promise<DeliveryDetail>;
  redeliver(webhookId: string, deliveryId: string): Promise<Delivery>;
}

/** The most webhooks per poll, per event, per project (`WEBHOOK_MAX_SUBSCRIPTIONS`' default). */
export const WEBHOOK_CAP = 20;
