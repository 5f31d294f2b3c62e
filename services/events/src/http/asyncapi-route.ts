import type { Router } from 'express';
import {
  asyncApiRoute,
  webhookAsyncApiDocument,
  webhookKindDocs,
  type AsyncApiDocument,
} from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';

/**
 * The AsyncAPI 3.0 document of area C's outbound webhooks (docs/webhooks.md), generated from the
 * list of changes (domain/changes.ts); served at /asyncapi.json (and by the gateway at
 * /docs/events.asyncapi.json).
 */
export const eventsAsyncApiDocument: AsyncApiDocument = webhookAsyncApiDocument({
  title: 'Fieldhouse Area C: event invitations, webhooks',
  version: '1.0.0',
  description:
    'What the events service POSTs to the webhooks of an event (`/api/events/{event_id}/webhooks`, owner ' +
    'only): invites added, checked in, their presence set. Bodies are `{type, timestamp, data}`, frozen when ' +
    'the change is written; `links` are paths relative to the Fieldhouse base URL. Every delivery is signed ' +
    '(Standard Webhooks headers) and retried for about 27.5 hours; deduplicate by `webhook-id`. ' +
    'Decisions: docs/webhooks.md.',
  kinds: webhookKindDocs(changes.webhookDocs()),
});

/** `GET /asyncapi.json`: the document above, unauthenticated like `/openapi.json`. */
export const eventsAsyncApiRoute = (): Router => asyncApiRoute(eventsAsyncApiDocument);
