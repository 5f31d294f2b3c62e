import { isUuid, type BodyReader } from '@fieldhouse/http';
import { notFound, validationFailed, type ProblemError } from '@fieldhouse/problem';
import {
  deliveryDetailView,
  deliveryView,
  subscriptionView,
  type TargetPolicy,
  type WebhookDelivery,
  type WebhookSubscription,
} from './api.ts';
import {
  SubscriptionLimitError,
  type DeliveryFilter,
  type Scope,
  type SubscriptionInput,
  type SubscriptionRow,
  type WebhookRepository,
} from './rows.ts';
import { DEFAULT_MAX_SUBSCRIPTIONS, type WebhookApiSettings } from './settings.ts';

/** A subscription with its signing secret: the creation and rotation answers, shown once. */
export type WebhookSubscriptionWithSecret = WebhookSubscription & { secret: string };

/** A delivery with the payload sent and every attempt. */
export type WebhookDeliveryDetail = ReturnType<typeof deliveryDetailView>;

/**
 * The webhook use cases of one area, the caller's access (`A`, e.g. `{userId, eventId}`)
 * checked first by the area. Every one may throw the area's 404/403 problems; those taking a
 * subscription id throw 404 when the scope has none with it; input errors are 422; a
 * subscription beyond the scope's cap (`WEBHOOK_MAX_SUBSCRIPTIONS`) is the area's 422
 * (`webhook_limit_reached`), nothing stored.
 */
export interface WebhookUseCases<A> {
  /** Creates a subscription; the answer carries its `secret`, once. 422 beyond the scope's cap. */
  create(access: A, input: BodyReader<SubscriptionInput>): Promise<WebhookSubscriptionWithSecret>;
  /** The scope's subscriptions, newest first. */
  list(access: A): Promise<WebhookSubscription[]>;
  get(access: A, id: string): Promise<WebhookSubscription>;
  /** Changes URL, kinds, description or `active` (turning it on clears the failure streak). */
  update(access: A, id: string, patch: BodyReader<Partial<SubscriptionInput>>): Promise<WebhookSubscription>;
  /** Deletes it with its delivery log. */
  remove(access: A, id: string): Promise<void>;
  /** A new secret; the previous one keeps signing alongside for the configured overlap. */
  rotateSecret(access: A, id: string): Promise<WebhookSubscriptionWithSecret>;
  /** Queues a `ping` delivery to it (even when disabled or not taking `ping`). */
  ping(access: A, id: string): Promise<WebhookDelivery>;
  /** A page of its deliveries, newest first, by status and kind. */
  deliveries(
    access: A,
    id: string,
    filter: DeliveryFilter,
    page: { page: number; per_page: number },
  ): Promise<{ rows: WebhookDelivery[]; total: number }>;
  delivery(access: A, id: string, deliveryId: string): Promise<WebhookDeliveryDetail>;
  /** Queues one delivery again (same `webhook-id`), as a new round of retries. */
  redeliver(access: A, id: string, deliveryId: string): Promise<WebhookDelivery>;
  /** Queues again every failed delivery created since a time; resolves with how many. */
  redeliverFailed(access: A, id: string, since: BodyReader<{ since: Date }>): Promise<{ count: number }>;
}

/** What an area's access check yields: where its webhooks live and who asks. */
export interface WebhookScope {
  /** Where the area keeps them ({@link knexWebhookRepository}, {@link mongoWebhookRepository}). */
  repo: WebhookRepository;
  scope: Scope;
  settings: WebhookApiSettings;
  userId: number | null;
  /**
   * The area's own columns of a subscription from a create or update body (area A's
   * `project_ids`), checked against the scope; omit when the area has none.
   * @throws ProblemError 422 naming the bad key.
   */
  columns?: (body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Called after a subscription was created, changed or deleted (area B keeps the poll's kinds in step). */
  changed?: () => Promise<void>;
  /**
   * The area's 422 when the scope already has `limit` subscriptions (`settings.maxSubscriptions`):
   * code `webhook_limit_reached`, in the area's words. Default: a `validation_failed` 422.
   */
  limitReached?: (limit: number) => ProblemError;
}

/**
 * Runs a repository write bounded by the scope's cap, answering the area's 422 when it is
 * reached (the repository stored nothing).
 * @throws ProblemError 422 from `s.limitReached` (or `validation_failed`) at the cap.
 */
async function withinCap<T>(s: WebhookScope, write: (limit: number) => Promise<T>): Promise<T> {
  const limit = s.settings.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  try {
    return await write(limit);
  } catch (err) {
    if (!(err instanceof SubscriptionLimitError)) throw err;
    throw (
      s.limitReached?.(err.limit) ??
      validationFailed({
        webhooks: [`At most ${err.limit} webhooks here: delete one before adding another.`],
      })
    );
  }
}

/**
 * Refuses a target URL the deployment does not allow: `http:` unless allowed, an IP literal the
 * SSRF guard refuses (names are checked at each delivery, after DNS resolution).
 * @throws ProblemError 422 on `url`.
 */
function checkTargetUrl(url: string, policy: TargetPolicy): void {
  const target = new URL(url);
  if (target.protocol === 'http:' && !policy.allowHttp)
    throw validationFailed({ url: ['The url must be an https URL.'] });
  const refusal = policy.guard.refusalOfLiteral(target.hostname);
  if (refusal) throw validationFailed({ url: [refusal] });
}

/**
 * The {@link WebhookUseCases} of an area: `resolve` checks the caller's access and names the
 * scope and the repository; `scopeKeys` are the scope keys shown in subscriptions (`event_id`,
 * `workspace_id`, `poll_id`).
 */
export function webhookUseCases<A>(
  resolve: (access: A) => Promise<WebhookScope>,
  scopeKeys: string[],
): WebhookUseCases<A> {
  const view = (row: SubscriptionRow) => subscriptionView(row, scopeKeys);
  const subscriptionOf = async (access: A, id: string) => {
    const s = await resolve(access);
    const row = isUuid(id) ? await s.repo.find(s.scope, id) : undefined;
    if (!row) throw notFound('No webhook with this id here.');
    return { ...s, row };
  };
  return {
    async create(access, input) {
      const s = await resolve(access);
      const body = input();
      checkTargetUrl(body.url, s.settings.policy);
      const columns = (await s.columns?.(body as unknown as Record<string, unknown>)) ?? {};
      const row = await withinCap(s, (limit) => s.repo.insert(s.scope, body, s.userId, columns, limit));
      await s.changed?.();
      return { ...view(row), secret: row.secret };
    },
    async list(access) {
      const s = await resolve(access);
      return (await s.repo.list(s.scope)).map(view);
    },
    async get(access, id) {
      return view((await subscriptionOf(access, id)).row);
    },
    async update(access, id, patch) {
      const s = await subscriptionOf(access, id);
      const body = patch();
      if (body.url !== undefined) checkTargetUrl(body.url, s.settings.policy);
      const columns = (await s.columns?.(body as unknown as Record<string, unknown>)) ?? {};
      const row = await withinCap(s, (limit) => s.repo.update(s.scope, id, body, columns, limit));
      if (!row) throw notFound('No webhook with this id here.');
      await s.changed?.();
      return view(row);
    },
    async remove(access, id) {
      const s = await subscriptionOf(access, id);
      await s.repo.remove(s.scope, s.row.id);
      await s.changed?.();
    },
    async rotateSecret(access, id) {
      const s = await subscriptionOf(access, id);
      const row = await s.repo.rotateSecret(s.scope, s.row.id, s.settings.secretOverlapMs);
      if (!row) throw notFound('No webhook with this id here.');
      return { ...view(row), secret: row.secret };
    },
    async ping(access, id) {
      const s = await subscriptionOf(access, id);
      return deliveryView(await s.repo.insertPing(s.row.id, s.scope));
    },
    async deliveries(access, id, filter, page) {
      const s = await subscriptionOf(access, id);
      const { rows, total } = await s.repo.listDeliveries(s.row.id, filter, page);
      return { rows: rows.map(deliveryView), total };
    },
    async delivery(access, id, deliveryId) {
      const s = await subscriptionOf(access, id);
      const found = isUuid(deliveryId) ? await s.repo.findDelivery(s.row.id, deliveryId) : undefined;
      if (!found) throw notFound('No delivery with this id for this webhook.');
      return deliveryDetailView(found);
    },
    async redeliver(access, id, deliveryId) {
      const s = await subscriptionOf(access, id);
      const row = isUuid(deliveryId) ? await s.repo.redeliver(s.row.id, deliveryId) : undefined;
      if (!row) throw notFound('No delivery with this id for this webhook.');
      return deliveryView(row);
    },
    async redeliverFailed(access, id, since) {
      const s = await subscriptionOf(access, id);
      return { count: await s.repo.redeliverFailedSince(s.row.id, since().since) };
    },
  };
}
