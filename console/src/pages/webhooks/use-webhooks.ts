import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeliveryStatus, WebhookApi, WebhookInput } from './types.ts';

/** Deliveries per page of a log (the API allows up to 100). */
const DELIVERIES_PER_PAGE = 20;

/** The scope's subscriptions, newest first; `enabled` false to wait (e.g. for the caller's role). */
export const useWebhooks = (api: WebhookApi, enabled = true) =>
  useQuery({ queryKey: [...api.key, 'list'], queryFn: () => api.list(), enabled });

/** Every change refreshes the scope's list and logs. */
function useScopeMutation<V, R>(api: WebhookApi, mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: api.key }) });
}

/** Creates one: the answer carries its secret, shown once. 422 `webhook_limit_reached` past the cap. */
export const useCreateWebhook = (api: WebhookApi) =>
  useScopeMutation(api, (body: WebhookInput) => api.create(body));

/** Changes its URL, kinds, description (and area A's projects). */
export const useUpdateWebhook = (api: WebhookApi) =>
  useScopeMutation(api, (v: { id: string; body: Partial<WebhookInput> }) => api.update(v.id, v.body));

/** Turns it off (`by_owner`) or on again (which clears the failure streak). */
export const useSetWebhookActive = (api: WebhookApi) =>
  useScopeMutation(api, (v: { id: string; active: boolean }) => api.update(v.id, { active: v.active }));

/** Deletes it with its delivery log. */
export const useDeleteWebhook = (api: WebhookApi) => useScopeMutation(api, (id: string) => api.remove(id));

/** A new secret (shown once); the previous one keeps signing until `previous_secret_expires_at`. */
export const useRotateSecret = (api: WebhookApi) => useScopeMutation(api, (id: string) => api.rotate(id));

/** Queues a `ping` delivery, even when the webhook is off. */
export const usePing = (api: WebhookApi) => useScopeMutation(api, (id: string) => api.ping(id));

/** Sends a delivery again (same body and `webhook-id`). */
export const useRedeliver = (api: WebhookApi, webhookId: string) =>
  useScopeMutation(api, (deliveryId: string) => api.redeliver(webhookId, deliveryId));

/**
 * A page of a subscription's deliveries, newest first, refreshed every 3 s while one of them is
 * still pending (so a ping or a redelivery shows its outcome without a reload).
 */
export const useDeliveries = (api: WebhookApi, webhookId: string, page: number, status?: DeliveryStatus) =>
  useQuery({
    queryKey: [...api.key, 'deliveries', webhookId, page, status ?? 'all'],
    queryFn: () =>
      api.deliveries(webhookId, { page, per_page: DELIVERIES_PER_PAGE, ...(status ? { status } : {}) }),
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? 3000 : false),
  });

/** One delivery with its body and every attempt (fetched when its row is opened). */
export const useDelivery = (api: WebhookApi, webhookId: string, deliveryId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...api.key, 'deliveries', webhookId, 'one', deliveryId],
    queryFn: () => api.delivery(webhookId, deliveryId),
    enabled,
  });
