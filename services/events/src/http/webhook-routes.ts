import { Joi } from '@fieldhouse/config';
import { pageOf, paginated, pathUuidSchema } from '@fieldhouse/http';
import { webhookRouteSpecs } from '@fieldhouse/webhooks';
import { NO_EVENT } from '../domain/problems.ts';
import type { EventsContext } from '../domain/context.ts';
import { EVENT_WEBHOOK_KINDS, eventWebhooks, type EventWebhookAccess } from '../domain/webhooks.ts';
import { actorOf, NOT_VISIBLE, STAFF_ONLY } from './declare.ts';

/**
 * `/api/events/{event_id}/webhooks...` (docs/webhooks.md): the event owner's webhook
 * subscriptions and their delivery log, in area C's shapes (bare JSON, spec 2.1 pages).
 */
export const webhookRoutes = webhookRouteSpecs<EventsContext, EventWebhookAccess>({
  basePath: '/api/events/{event_id}/webhooks',
  scopeParams: { event_id: pathUuidSchema().required() },
  scopeKeys: { event_id: Joi.string().uuid().required() },
  notFound: NO_EVENT,
  operationNoun: 'Event',
  tags: ['Webhooks'],
  kinds: EVENT_WEBHOOK_KINDS,
  who: 'owner',
  problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE },
  useCases: eventWebhooks,
  access: (req, params) => ({ actor: actorOf(req), eventId: params.event_id! }),
  one: (item) => item,
  many: (items) => items,
  page: (items, page, total) => paginated(items, page, total),
  schemas: { one: (s) => s, many: (s) => Joi.array().items(s), page: (s) => pageOf(s) },
});
