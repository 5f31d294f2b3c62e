import { Joi } from '@fieldhouse/config';
import { idSchema, pageOf, paginated, pathId, pathIdParam } from '@fieldhouse/http';
import { webhookRouteSpecs } from '@fieldhouse/webhooks';
import type { CollectionContext } from '../domain/context.ts';
import {
  WORKSPACE_WEBHOOK_KINDS,
  workspaceWebhooks,
  type WorkspaceWebhookAccess,
} from '../domain/webhooks.ts';

/**
 * `/api/v1/workspaces/{workspace_id}/webhooks...` (docs/webhooks.md): a workspace's webhook
 * subscriptions (owners, admins, managers), optionally limited to some projects, and their
 * delivery log, in area A's shapes (`{data}`, spec 2.1 pages).
 */
export const webhookRoutes = webhookRouteSpecs<CollectionContext, WorkspaceWebhookAccess>({
  basePath: '/api/v1/workspaces/{workspace_id}/webhooks',
  scopeParams: { workspace_id: pathIdParam() },
  scopeKeys: {
    workspace_id: Joi.number().integer().required(),
    project_ids: Joi.array()
      .items(Joi.number().integer())
      .allow(null)
      .required()
      .description('Projects whose events it takes; null for every project of the workspace'),
  },
  bodyKeys: {
    project_ids: Joi.array()
      .items(idSchema())
      .min(1)
      .max(100)
      .unique()
      .allow(null)
      .description('Limit it to these projects of the workspace (null or absent: all of them)'),
  },
  notFound: 'Workspace not found.',
  operationNoun: 'Workspace',
  tags: ['Webhooks'],
  kinds: WORKSPACE_WEBHOOK_KINDS,
  who: 'owners, admins and managers',
  problems: {
    403: 'The caller’s role in the workspace is below manager',
    404: 'Unknown workspace, or the caller is not a member',
  },
  useCases: workspaceWebhooks,
  access: (req, params) => ({
    actor: req.caller,
    workspaceId: pathId(Number(params.workspace_id), 'workspaceId'),
  }),
  one: (item) => ({ data: item }),
  many: (items) => ({ data: items }),
  page: (items, page, total) => paginated(items, page, total),
  schemas: {
    one: (s) => Joi.object({ data: s.required() }),
    many: (s) => Joi.object({ data: Joi.array().items(s).required() }),
    page: (s) => pageOf(s),
  },
});
