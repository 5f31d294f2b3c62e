import type { Request, RequestHandler } from 'express';
import { Joi } from '@fieldhouse/config';
import { pageQuerySchema, pathUuidSchema, type AnyRouteSpec, type RouteSpec } from '@fieldhouse/http';
import {
  deliveryDetailSchema,
  deliveryQuerySchema,
  deliverySchema,
  redeliverFailedSchema,
  secretKey,
  subscriptionSchema,
  webhookCreateSchema,
  webhookPatchSchema,
} from './api.ts';
import type { DeliveryStatus } from './types.ts';
import type { WebhookUseCases } from './use-cases.ts';

/** How an area shapes and protects its webhook routes (docs/webhooks.md, "API"). */
export interface WebhookRoutesOptions<C, A> {
  /** `/api/events/{event_id}/webhooks`: the collection path, under the scope's resource. */
  basePath: string;
  /** Schemas of the scope's path parameters (`{event_id: pathUuidSchema().required()}`). */
  scopeParams: Joi.PartialSchemaMap;
  /** The scope keys shown in a subscription (`{event_id: Joi.string().uuid().required()}`). */
  scopeKeys: Joi.PartialSchemaMap;
  /** The 404 detail of a scope path parameter that cannot be valid. */
  notFound: string;
  /** Names the operations: `Event` gives `createEventWebhook`, `listEventWebhooks`... */
  operationNoun: string;
  tags: string[];
  /** The event kinds of the area. */
  kinds: readonly string[];
  /** The area's own keys of create and update bodies (area A's `project_ids`). */
  bodyKeys?: Joi.PartialSchemaMap;
  /** Who may manage them, e.g. `the event’s owner`. */
  who: string;
  /** Problem statuses every route of the scope may answer (403, 404...) and what they mean. */
  problems: Record<number, string>;
  /** Middleware run first on every route (area B: `signedIn`, 401 for an anonymous caller). */
  middleware?: (ctx: C) => RequestHandler[];
  /** The use cases, from the service's context. */
  useCases: (ctx: C) => WebhookUseCases<A>;
  /** The access command of a request (its caller and scope parameters). */
  access: (req: Request, params: Record<string, string>) => A;
  /** The area's envelope of one resource (`{data}` in area A, bare in area C). */
  one: (item: unknown) => unknown;
  /** The area's envelope of a short list. */
  many: (items: unknown[]) => unknown;
  /** The area's list envelope of a page (spec 2.1 pagination in areas A and C). */
  page: (items: unknown[], page: { page: number; per_page: number }, total: number) => unknown;
  /** Wraps a response schema in the area's envelope of one resource, of a list, of a page. */
  schemas: {
    one: (s: Joi.Schema) => Joi.Schema;
    many: (s: Joi.Schema) => Joi.Schema;
    page: (s: Joi.Schema) => Joi.Schema;
  };
}

/**
 * The webhook routes of an area, the same in all three (docs/webhooks.md): create (the secret
 * answered once), list, get, update, delete, rotate the secret, ping, deliveries (paged, by
 * status and kind), one delivery with its attempts, redeliver one, redeliver the failed ones
 * since a time.
 */
export function webhookRouteSpecs<C, A>(o: WebhookRoutesOptions<C, A>): AnyRouteSpec<C>[] {
  const noun = o.operationNoun;
  const base = o.basePath;
  const one = `${base}/{webhook_id}`;
  const webhookParams = Joi.object({ ...o.scopeParams, webhook_id: pathUuidSchema().required() });
  const deliveryParams = webhookParams.keys({ delivery_id: pathUuidSchema().required() });
  const Subscription = subscriptionSchema(o.scopeKeys).id(`${noun}Webhook`);
  const WithSecret = Subscription.keys(secretKey).id(`${noun}WebhookWithSecret`);
  const Delivery = deliverySchema.id(`${noun}WebhookDelivery`);
  const Detail = deliveryDetailSchema.id(`${noun}WebhookDeliveryDetail`);
  const tags = o.tags;
  const problems = o.problems;
  const notFound = o.notFound;
  const webhookMissing = { ...problems, 404: `${problems[404] ?? 'Not found'}, or no such webhook` };
  const deliveryMissing = {
    ...problems,
    404: `${problems[404] ?? 'Not found'}, or no such webhook or delivery`,
  };
  // One set of use cases per context (the service builds its context once).
  const built = new WeakMap<object, WebhookUseCases<A>>();
  const uses = (ctx: C) => {
    let u = built.get(ctx as object);
    if (!u) built.set(ctx as object, (u = o.useCases(ctx)));
    return u;
  };
  type P = Record<string, string>;
  const spec = <Q, B>(s: RouteSpec<P, Q, B, C>): AnyRouteSpec<C> =>
    (o.middleware ? { ...s, middleware: o.middleware } : s) as AnyRouteSpec<C>;

  return [
    spec({
      method: 'post',
      path: base,
      operationId: `create${noun}Webhook`,
      summary: `Subscribe an endpoint to event kinds (${o.who})`,
      description:
        'Answers 201 with the subscription and its signing `secret` (`whsec_…`), shown this once. ' +
        'Deliveries are signed per the Standard Webhooks specification (docs/webhooks.md).',
      tags,
      params: Joi.object(o.scopeParams),
      notFound,
      body: webhookCreateSchema(o.kinds, o.bodyKeys),
      parseBody: 'by-use-case',
      responses: {
        201: { description: 'Created; the secret is shown once', body: o.schemas.one(WithSecret) },
      },
      problems: { ...problems, 422: 'Invalid URL (not https, or a refused address) or event kinds' },
      handler: async ({ params, readBody }, ctx, req) => ({
        status: 201,
        body: o.one(await uses(ctx).create(o.access(req, params), readBody as never)),
      }),
    }),
    spec({
      method: 'get',
      path: base,
      operationId: `list${noun}Webhooks`,
      summary: `Webhook subscriptions, newest first (${o.who})`,
      tags,
      params: Joi.object(o.scopeParams),
      notFound,
      responses: { 200: { description: 'The subscriptions', body: o.schemas.many(Subscription) } },
      problems,
      handler: async ({ params }, ctx, req) => ({
        body: o.many(await uses(ctx).list(o.access(req, params))),
      }),
    }),
    spec({
      method: 'get',
      path: one,
      operationId: `get${noun}Webhook`,
      summary: `One webhook subscription (${o.who})`,
      tags,
      params: webhookParams,
      notFound,
      responses: { 200: { description: 'The subscription', body: o.schemas.one(Subscription) } },
      problems: webhookMissing,
      handler: async ({ params }, ctx, req) => ({
        body: o.one(await uses(ctx).get(o.access(req, params), params.webhook_id!)),
      }),
    }),
    spec({
      method: 'patch',
      path: one,
      operationId: `update${noun}Webhook`,
      summary: `Change a webhook’s URL, kinds, description or state (${o.who})`,
      description: 'Setting `active` to true again clears the failure streak and the disabled reason.',
      tags,
      params: webhookParams,
      notFound,
      body: webhookPatchSchema(o.kinds, o.bodyKeys),
      parseBody: 'by-use-case',
      responses: { 200: { description: 'The subscription', body: o.schemas.one(Subscription) } },
      problems: { ...webhookMissing, 422: 'Invalid URL or event kinds, or nothing to change' },
      handler: async ({ params, readBody }, ctx, req) => ({
        body: o.one(await uses(ctx).update(o.access(req, params), params.webhook_id!, readBody as never)),
      }),
    }),
    spec({
      method: 'delete',
      path: one,
      operationId: `delete${noun}Webhook`,
      summary: `Delete a webhook and its delivery log (${o.who})`,
      tags,
      params: webhookParams,
      notFound,
      responses: { 204: { description: 'Deleted' } },
      problems: webhookMissing,
      handler: async ({ params }, ctx, req) => {
        await uses(ctx).remove(o.access(req, params), params.webhook_id!);
        return { status: 204 };
      },
    }),
    spec({
      method: 'post',
      path: `${one}/rotate-secret`,
      operationId: `rotate${noun}WebhookSecret`,
      summary: `Give a webhook a new signing secret (${o.who})`,
      description:
        'Answers the new `secret` once. The previous secret keeps signing alongside it (two `v1,` signatures ' +
        'in `webhook-signature`) until `previous_secret_expires_at` (24 hours by default), so receivers can switch.',
      tags,
      params: webhookParams,
      notFound,
      responses: {
        200: { description: 'The subscription with its new secret', body: o.schemas.one(WithSecret) },
      },
      problems: webhookMissing,
      handler: async ({ params }, ctx, req) => ({
        body: o.one(await uses(ctx).rotateSecret(o.access(req, params), params.webhook_id!)),
      }),
    }),
    spec({
      method: 'post',
      path: `${one}/ping`,
      operationId: `ping${noun}Webhook`,
      summary: `Send a test event (\`ping\`) to a webhook (${o.who})`,
      description: 'Queued at once, even when the webhook is disabled; follow it in the deliveries.',
      tags,
      params: webhookParams,
      notFound,
      responses: { 202: { description: 'The queued delivery', body: o.schemas.one(Delivery) } },
      problems: webhookMissing,
      handler: async ({ params }, ctx, req) => ({
        status: 202,
        body: o.one(await uses(ctx).ping(o.access(req, params), params.webhook_id!)),
      }),
    }),
    spec({
      method: 'get',
      path: `${one}/deliveries`,
      operationId: `list${noun}WebhookDeliveries`,
      summary: `A webhook’s deliveries, newest first (${o.who})`,
      description: 'Filter by `status` (pending, succeeded, failed) and `event` (a kind).',
      tags,
      params: webhookParams,
      query: Joi.object<{ status?: DeliveryStatus; event?: string; page: number; per_page: number }>({
        ...deliveryQuerySchema,
        ...pageQuerySchema,
      }),
      notFound,
      responses: { 200: { description: 'A page of deliveries', body: o.schemas.page(Delivery) } },
      problems: { ...webhookMissing, 422: 'Invalid filter or page' },
      handler: async ({ params, query }, ctx, req) => {
        const page = { page: query.page, per_page: query.per_page };
        const filter = {
          ...(query.status ? { status: query.status } : {}),
          ...(query.event ? { kind: query.event } : {}),
        };
        const { rows, total } = await uses(ctx).deliveries(
          o.access(req, params),
          params.webhook_id!,
          filter,
          page,
        );
        return { body: o.page(rows, page, total) };
      },
    }),
    spec({
      method: 'get',
      path: `${one}/deliveries/{delivery_id}`,
      operationId: `get${noun}WebhookDelivery`,
      summary: `One delivery with the payload sent and every attempt (${o.who})`,
      tags,
      params: deliveryParams,
      notFound,
      responses: { 200: { description: 'The delivery', body: o.schemas.one(Detail) } },
      problems: deliveryMissing,
      handler: async ({ params }, ctx, req) => ({
        body: o.one(await uses(ctx).delivery(o.access(req, params), params.webhook_id!, params.delivery_id!)),
      }),
    }),
    spec({
      method: 'post',
      path: `${one}/deliveries/{delivery_id}/redeliver`,
      operationId: `redeliver${noun}WebhookDelivery`,
      summary: `Send a delivery again (${o.who})`,
      description: 'The same payload and `webhook-id`, as a new round of retries, due now.',
      tags,
      params: deliveryParams,
      notFound,
      responses: { 202: { description: 'The delivery, pending', body: o.schemas.one(Delivery) } },
      problems: deliveryMissing,
      handler: async ({ params }, ctx, req) => ({
        status: 202,
        body: o.one(
          await uses(ctx).redeliver(o.access(req, params), params.webhook_id!, params.delivery_id!),
        ),
      }),
    }),
    spec({
      method: 'post',
      path: `${one}/redeliver-failed`,
      operationId: `redeliverFailed${noun}WebhookDeliveries`,
      summary: `Send again every failed delivery since a time (${o.who})`,
      tags,
      params: webhookParams,
      notFound,
      body: redeliverFailedSchema,
      parseBody: 'by-use-case',
      responses: {
        202: {
          description: 'How many deliveries were queued again',
          body: o.schemas.one(
            Joi.object({ count: Joi.number().integer().min(0).required() }).id(`${noun}RedeliveredCount`),
          ),
        },
      },
      problems: { ...webhookMissing, 422: 'Invalid `since`' },
      handler: async ({ params, readBody }, ctx, req) => ({
        status: 202,
        body: o.one(
          await uses(ctx).redeliverFailed(o.access(req, params), params.webhook_id!, readBody as never),
        ),
      }),
    }),
  ];
}
