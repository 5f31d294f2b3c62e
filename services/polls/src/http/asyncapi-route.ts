import type { Router } from 'express';
import {
  asyncApiRoute,
  webhookAsyncApiDocument,
  webhookKindDocs,
  type AsyncApiDocument,
} from '@fieldhouse/webhooks';
import { POLL_WEBHOOK_PAYLOADS } from '../domain/webhook-payloads.ts';

/**
 * The AsyncAPI 3.0 document of area B's outbound webhooks (docs/webhooks.md), built from the
 * kinds' payload schemas; served at /asyncapi.json (and by the gateway at
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
  kinds: webhookKindDocs(POLL_WEBHOOK_PAYLOADS),
});

/** `GET /asyncapi.json`: the document above, unauthenticated like `/openapi.json`. */
export const pollsAsyncApiRoute = (): Router => asyncApiRoute(pollsAsyncApiDocument);
