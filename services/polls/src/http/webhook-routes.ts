import { Joi } from '@fieldhouse/config';
import { paginated } from '@fieldhouse/http';
import { webhookRouteSpecs } from '@fieldhouse/webhooks';
import type { PollsContext } from '../domain/context.ts';
import { POLL_WEBHOOK_KINDS } from '../domain/changes.ts';
import { pollWebhooks, type PollWebhookAccess } from '../domain/webhooks.ts';
import { signedIn } from './declare.ts';
import { envelope, listEnvelope, pollIdSchema } from './shared-schemas.ts';

/**
 * `/api/polls/{poll_id}/webhooks...` (docs/webhooks.md): the poll owner's webhook subscriptions
 * and their delivery log, in area B's shapes (`{data, message}`; pages with `pagination`).
 */
export const webhookRoutes = webhookRouteSpecs<PollsContext, PollWebhookAccess>({
  basePath: '/api/polls/{poll_id}/webhooks',
  scopeParams: { poll_id: pollIdSchema().required() },
  scopeKeys: { poll_id: Joi.string().required() },
  notFound: 'No poll has this id.',
  operationNoun: 'Poll',
  tags: ['Webhooks'],
  kinds: POLL_WEBHOOK_KINDS,
  who: 'the poll’s owner',
  middleware: signedIn,
  problems: { 401: 'Anonymous caller', 403: 'Not the owner', 404: 'Unknown poll' },
  useCases: pollWebhooks,
  access: (req, params) => ({ userId: req.caller.userId, email: req.caller.email, pollId: params.poll_id! }),
  one: (item) => ({ data: item, message: 'Webhook.' }),
  many: (items) => ({ data: items, message: 'Webhooks of the poll.' }),
  page: (items, page, total) => ({ ...paginated(items, page, total), message: 'Deliveries of the webhook.' }),
  schemas: {
    one: (s) => envelope(s),
    many: (s) => envelope(Joi.array().items(s)),
    page: (s) => listEnvelope(s),
  },
});
