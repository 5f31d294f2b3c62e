import { call, pollsApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/polls.ts';
import type { WebhookApi } from './types.ts';

/** `call` with the area's envelope taken off. */
const one = async <T>(pending: Promise<{ data?: { data: T }; error?: unknown; response: Response }>) =>
  (await call(pending)).data;

type Kind = operations['createPollWebhook']['requestBody']['content']['application/json']['events'][number];

/** Area B's kinds (docs/webhooks.md, "Area B"). */
const POLL_KINDS = [
  'poll.vote.counted',
  'poll.comment.created',
  'poll.closed',
] as const satisfies readonly Kind[];

/**
 * The webhooks of one poll (`/api/polls/{poll_id}/webhooks`, the poll's owner; anyone else
 * 403, an unknown poll 404). Area B answers `{data, message}`: the data is taken out.
 */
export function pollWebhookApi(pollId: string): WebhookApi {
  const scope = { poll_id: pollId };
  const hook = (webhook_id: string) => ({ params: { path: { ...scope, webhook_id } } });
  const delivery = (webhook_id: string, delivery_id: string) => ({
    params: { path: { ...scope, webhook_id, delivery_id } },
  });
  return {
    key: ['webhooks', 'poll', pollId],
    kinds: POLL_KINDS,
    list: () => one(pollsApi.GET('/api/polls/{poll_id}/webhooks', { params: { path: scope } })),
    create: (body) =>
      one(
        pollsApi.POST('/api/polls/{poll_id}/webhooks', {
          params: { path: scope },
          body: { url: body.url, events: body.events as Kind[], description: body.description },
        }),
      ),
    update: (id, body) =>
      one(
        pollsApi.PATCH('/api/polls/{poll_id}/webhooks/{webhook_id}', {
          ...hook(id),
          body: { ...body, events: body.events as Kind[] | undefined },
        }),
      ),
    remove: async (id) => {
      await call(pollsApi.DELETE('/api/polls/{poll_id}/webhooks/{webhook_id}', hook(id)));
    },
    rotate: (id) => one(pollsApi.POST('/api/polls/{poll_id}/webhooks/{webhook_id}/rotate-secret', hook(id))),
    ping: (id) => one(pollsApi.POST('/api/polls/{poll_id}/webhooks/{webhook_id}/ping', hook(id))),
    deliveries: (id, query) =>
      call(
        pollsApi.GET('/api/polls/{poll_id}/webhooks/{webhook_id}/deliveries', {
          params: { path: { ...scope, webhook_id: id }, query },
        }),
      ),
    delivery: (id, deliveryId) =>
      one(
        pollsApi.GET(
          '/api/polls/{poll_id}/webhooks/{webhook_id}/deliveries/{delivery_id}',
          delivery(id, deliveryId),
        ),
      ),
    redeliver: (id, deliveryId) =>
      one(
        pollsApi.POST(
          '/api/polls/{poll_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
          delivery(id, deliveryId),
        ),
      ),
  };
}
