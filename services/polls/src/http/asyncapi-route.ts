import type { Router } from 'express';
import {
  asyncApiRoute,
  webhookAsyncApiDocument,
  webhookKindDocs,
  type AsyncApiDocument,
} from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';

/**
 * The AsyncAPI 3.0 document of area B's outbound webhooks (docs/webhooks.md), generated from the
 * list of changes (domain/changes.ts); served at /asyncapi.json (and by the gateway at
 * /docs/polls.asyncapi.json).
 */
export const pollsAsyncApiDocument: AsyncApiDocument = webhookAsyncApiDocument({
  title: 'Fieldhouse Area B: polls, webhooks',
  version: '1.0.0',
  description:
    'What the polls service POSTs to the webhooks of a poll: votes counted, comments posted, the poll ' +
    'closed. Bodies are `{type, timestamp, data}`, frozen when the change is written; `links` are paths ' +
    'relative to the Fieldhouse base URL. Every delivery is signed (Standard Webhooks headers) and retried ' +
    'for about 27.5 hours; deduplicate by `webhook-id`. Decisions: docs/webhooks.md.',
  kinds: webhookKindDocs(changes.webhookDocs()),
});

/** `GET /asyncapi.json`: the document above, unauthenticated like `/openapi.json`. */
export const pollsAsyncApiRoute = (): Router => asyncApiRoute(pollsAsyncApiDocument);
