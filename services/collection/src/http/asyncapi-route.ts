import type { Router } from 'express';
import {
  asyncApiRoute,
  webhookAsyncApiDocument,
  webhookKindDocs,
  type AsyncApiDocument,
} from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';

/**
 * The AsyncAPI 3.0 document of area A's outbound webhooks (docs/webhooks.md), generated from the
 * list of changes (domain/changes.ts); served at /asyncapi.json (and by the gateway at
 * /docs/collection.asyncapi.json).
 */
export const collectionAsyncApiDocument: AsyncApiDocument = webhookAsyncApiDocument({
  title: 'Fieldhouse Area A: data collection, webhooks',
  version: '1.0.0',
  description:
    'What the collection service POSTs to the webhooks of a workspace ' +
    '(`/api/v1/workspaces/{workspace_id}/webhooks`, owners, admins and managers; a subscription may be ' +
    'limited to some projects): submissions created, updated, reviewed, deleted; exports completed or ' +
    'failed. Bodies are `{type, timestamp, data}`, frozen when the change is written; `links` are paths ' +
    'relative to the Fieldhouse base URL. Every delivery is signed (Standard Webhooks headers) and retried ' +
    'for about 27.5 hours; deduplicate by `webhook-id`. Decisions: docs/webhooks.md.',
  kinds: webhookKindDocs(changes.webhookDocs()),
});

/** `GET /asyncapi.json`: the document above, unauthenticated like `/openapi.json`. */
export const collectionAsyncApiRoute = (): Router => asyncApiRoute(collectionAsyncApiDocument);
