import { call, eventsApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/events.ts';
import type { WebhookApi } from './types.ts';

type Kind = operations['createEventWebhook']['requestBody']['content']['application/json']['events'][number];

/** Area C's kinds (docs/webhooks.md, "Area C"). */
const EVENT_KINDS = [
  'invite.created',
  'invite.checked_in',
  'invite.presence_changed',
] as const satisfies readonly Kind[];

/**
 * The webhooks of one event (`/api/events/{event_id}/webhooks`, the event's owner; staff 403,
 * anyone else 404). Area C answers bare JSON.
 */
export function eventWebhookApi(eventId: string): WebhookApi {
  const scope = { event_id: eventId };
  const hook = (webhook_id: string) => ({ params: { path: { ...scope, webhook_id } } });
  const delivery = (webhook_id: string, delivery_id: string) => ({
    params: { path: { ...scope, webhook_id, delivery_id } },
  });
  return {
    key: ['webhooks', 'event', eventId],
    kinds: EVENT_KINDS,
    list: () => call(eventsApi.GET('/api/events/{event_id}/webhooks', { params: { path: scope } })),
    create: (body) =>
      call(
        eventsApi.POST('/api/events/{event_id}/webhooks', {
          params: { path: scope },
          body: { url: body.url, events: body.events as Kind[], description: body.description },
        }),
      ),
    update: (id, body) =>
      call(
        eventsApi.PATCH('/api/events/{event_id}/webhooks/{webhook_id}', {
          ...hook(id),
          body: { ...body, events: body.events as Kind[] | undefined },
        }),
      ),
    remove: async (id) => {
      await call(eventsApi.DELETE('/api/events/{event_id}/webhooks/{webhook_id}', hook(id)));
    },
    rotate: (id) =>
      call(eventsApi.POST('/api/events/{event_id}/webhooks/{webhook_id}/rotate-secret', hook(id))),
    ping: (id) => call(eventsApi.POST('/api/events/{event_id}/webhooks/{webhook_id}/ping', hook(id))),
    deliveries: (id, query) =>
      call(
        eventsApi.GET('/api/events/{event_id}/webhooks/{webhook_id}/deliveries', {
          params: { path: { ...scope, webhook_id: id }, query },
        }),
      ),
    delivery: (id, deliveryId) =>
      call(
        eventsApi.GET(
          '/api/events/{event_id}/webhooks/{webhook_id}/deliveries/{delivery_id}',
          delivery(id, deliveryId),
        ),
      ),
    redeliver: (id, deliveryId) =>
      call(
        eventsApi.POST(
          '/api/events/{event_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
          delivery(id, deliveryId),
        ),
      ),
  };
}
