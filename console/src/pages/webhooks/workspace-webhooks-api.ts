import { call, collectionApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/collection.ts';
import type { WebhookApi } from './types.ts';

/** `call` with the area's envelope taken off. */
const one = async <T>(pending: Promise<{ data?: { data: T }; error?: unknown; response: Response }>) =>
  (await call(pending)).data;

type Kind =
  operations['createWorkspaceWebhook']['requestBody']['content']['application/json']['events'][number];

/** Area A's kinds (docs/webhooks.md, "Area A"). */
const WORKSPACE_KINDS = [
  'submission.created',
  'submission.updated',
  'submission.reviewed',
  'submission.deleted',
  'export.completed',
  'export.failed',
] as const satisfies readonly Kind[];

/**
 * The webhooks of one workspace (`/api/v1/workspaces/{workspace_id}/webhooks`, owners, admins
 * and managers; other members 403, anyone else 404). Area A answers `{data}`: the data is taken out.
 */
export function workspaceWebhookApi(workspaceId: number): WebhookApi {
  const scope = { workspace_id: String(workspaceId) };
  const hook = (webhook_id: string) => ({ params: { path: { ...scope, webhook_id } } });
  const delivery = (webhook_id: string, delivery_id: string) => ({
    params: { path: { ...scope, webhook_id, delivery_id } },
  });
  return {
    key: ['webhooks', 'workspace', workspaceId],
    kinds: WORKSPACE_KINDS,
    list: () =>
      one(collectionApi.GET('/api/v1/workspaces/{workspace_id}/webhooks', { params: { path: scope } })),
    create: (body) =>
      one(
        collectionApi.POST('/api/v1/workspaces/{workspace_id}/webhooks', {
          params: { path: scope },
          body: {
            url: body.url,
            events: body.events as Kind[],
            description: body.description,
            project_ids: body.project_ids ?? null,
          },
        }),
      ),
    update: (id, body) =>
      one(
        collectionApi.PATCH('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}', {
          ...hook(id),
          body: { ...body, events: body.events as Kind[] | undefined },
        }),
      ),
    remove: async (id) => {
      await call(collectionApi.DELETE('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}', hook(id)));
    },
    rotate: (id) =>
      one(
        collectionApi.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/rotate-secret', hook(id)),
      ),
    ping: (id) =>
      one(collectionApi.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/ping', hook(id))),
    deliveries: (id, query) =>
      call(
        collectionApi.GET('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries', {
          params: { path: { ...scope, webhook_id: id }, query },
        }),
      ),
    delivery: (id, deliveryId) =>
      one(
        collectionApi.GET(
          '/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}',
          delivery(id, deliveryId),
        ),
      ),
    redeliver: (id, deliveryId) =>
      one(
        collectionApi.POST(
          '/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
          delivery(id, deliveryId),
        ),
      ),
  };
}
