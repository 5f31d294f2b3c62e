import { Router } from 'express';
import type { JsonSchema } from '@fieldhouse/http';
import { PING_KIND } from './types.ts';

/** One kind of webhook a service sends, as its AsyncAPI document describes it. */
export interface WebhookKindDoc {
  /** The kind: the body's `type` and a subscription's `events` entry (`invite.created`). */
  kind: string;
  /** One line: when it is sent. */
  summary: string;
  /** More: which paths trigger it, what `data` holds (CommonMark). */
  description: string;
  /** JSON Schema of the body's `data`. */
  data: JsonSchema;
}

/** What {@link webhookAsyncApiDocument} needs: the service's title, version, description and kinds. */
export interface WebhookAsyncApiOptions {
  title: string;
  version: string;
  description: string;
  /** The service's kinds; `ping` is added (every service sends it), so it must not be listed. */
  kinds: readonly WebhookKindDoc[];
}

/** A service's kinds documented as a record, kind → the rest (the type can then demand every kind). */
export type WebhookKindDocs = Record<string, Omit<WebhookKindDoc, 'kind'>>;

/** The {@link WebhookKindDoc} list of a {@link WebhookKindDocs} record, in its order. */
export const webhookKindDocs = (docs: WebhookKindDocs): WebhookKindDoc[] =>
  Object.entries(docs).map(([kind, doc]) => ({ kind, ...doc }));

/** A `$ref` to another part of the same document. */
export interface AsyncApiRef {
  $ref: string;
}

/** A message: one kind's body (`payload`) and the headers it is sent with. */
export interface AsyncApiMessage {
  name: string;
  title: string;
  summary: string;
  description: string;
  contentType: 'application/json';
  headers: AsyncApiRef;
  payload: JsonSchema;
  bindings: { http: { headers: JsonSchema; bindingVersion: '0.3.0' } };
}

/** A channel: one kind (its address), with its one message. */
export interface AsyncApiChannel {
  address: string;
  title: string;
  summary: string;
  description: string;
  messages: Record<string, AsyncApiMessage>;
}

/** An operation of the service: it sends one kind's message, POSTed to the subscription's URL. */
export interface AsyncApiOperation {
  action: 'send';
  channel: AsyncApiRef;
  title: string;
  summary: string;
  description: string;
  messages: AsyncApiRef[];
  bindings: { http: { method: 'POST'; bindingVersion: '0.3.0' } };
  security: AsyncApiRef[];
}

/** An AsyncAPI 3.0.0 document of a service's outbound webhooks (what {@link webhookAsyncApiDocument} builds). */
export interface AsyncApiDocument {
  asyncapi: '3.0.0';
  info: { title: string; version: string; description: string };
  defaultContentType: 'application/json';
  servers: Record<string, object>;
  channels: Record<string, AsyncApiChannel>;
  operations: Record<string, AsyncApiOperation>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, object> };
}

/** The test event of `POST .../webhooks/{webhook_id}/ping`, which every service sends. */
const PING_KIND_DOC: WebhookKindDoc = {
  kind: PING_KIND,
  summary: 'A test delivery asked for with `POST …/webhooks/{webhook_id}/ping`.',
  description:
    'Sent to one subscription when its owner asks for it, even when the subscription is disabled or ' +
    'does not take any kind: it checks the URL, the secret and the signature check of the receiver.',
  data: {
    type: 'object',
    required: ['subscription_id'],
    properties: {
      subscription_id: { type: 'string', format: 'uuid', description: 'The subscription pinged.' },
    },
  },
};

const HEADERS_SCHEMA = 'StandardWebhooksHeaders';
const SIGNATURE_SCHEME = 'standardWebhooksSignature';

/** The Standard Webhooks headers of every delivery (libs/webhooks signing.ts). */
const standardWebhooksHeaders: JsonSchema = {
  type: 'object',
  description: 'The [Standard Webhooks](https://www.standardwebhooks.com/) headers of every attempt.',
  required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
  properties: {
    'webhook-id': {
      type: 'string',
      description:
        'The message id: the same on every attempt and every redelivery of this message (the ' +
        '`message_id` of the delivery log). Receivers deduplicate by it: delivery is at least once.',
    },
    'webhook-timestamp': {
      type: 'string',
      pattern: '^[0-9]+$',
      description: 'Unix time in seconds of this attempt (signed: refuse one far from your clock).',
    },
    'webhook-signature': {
      type: 'string',
      pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$',
      description:
        '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the ' +
        "subscription's secret (`whsec_…`, base64 after the prefix); two, separated by a space, while a " +
        'rotated secret overlaps the new one. Accept the delivery if any of them matches.',
    },
  },
};

/** The HTTP headers besides the Standard Webhooks ones (libs/webhooks sender.ts). */
const httpHeaders: JsonSchema = {
  type: 'object',
  properties: {
    'content-type': { type: 'string', const: 'application/json' },
    'user-agent': { type: 'string', description: '`Fieldhouse-Webhooks/1`' },
  },
};

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
const ref = (...parts: string[]): AsyncApiRef => ({ $ref: `#/${parts.map(escapePointer).join('/')}` });

/** `invite.checked_in` → `sendInviteCheckedIn`: an operation id code generators can use. */
const operationId = (kind: string) =>
  `send${kind
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

/** The body of every delivery: `{type, timestamp, data}`, `data` as the kind says. */
const envelope = (k: WebhookKindDoc): JsonSchema => ({
  type: 'object',
  required: ['type', 'timestamp', 'data'],
  properties: {
    type: { type: 'string', const: k.kind, description: 'The kind.' },
    timestamp: {
      type: 'string',
      format: 'date-time',
      description:
        'When the change was written (ISO 8601, UTC, milliseconds). Frozen with `data`: the same on every ' +
        'attempt and redelivery. Deliveries may arrive out of order: order them by this.',
    },
    data: k.data,
  },
});

const channelOf = (k: WebhookKindDoc): AsyncApiChannel => ({
  address: k.kind,
  title: k.kind,
  summary: k.summary,
  description: k.description,
  messages: {
    [k.kind]: {
      name: k.kind,
      title: k.kind,
      summary: k.summary,
      description: k.description,
      contentType: 'application/json',
      headers: ref('components', 'schemas', HEADERS_SCHEMA),
      payload: envelope(k),
      bindings: { http: { headers: httpHeaders, bindingVersion: '0.3.0' } },
    },
  },
});

// The action is `send`. AsyncAPI 3.0 describes one application, and an operation's action is
// that application's own: "send" when "the application will send a message to the given
// channel", "receive" when it "should expect receiving messages" (spec 3.0.0, Operation Object).
// This document is served by the Fieldhouse service that sends the webhooks, so its
// operations are sends; a receiver's own document would list the same messages as `receive`.
const operationOf = (k: WebhookKindDoc): AsyncApiOperation => ({
  action: 'send',
  channel: ref('channels', k.kind),
  title: `Send ${k.kind}`,
  summary: k.summary,
  description:
    `POSTs a \`${k.kind}\` body, signed, to the URL of every active subscription of the scope whose ` +
    '`events` list it (`ping`: to the one subscription pinged). A 2xx answer in time (10 s by default) ' +
    'acknowledges it; 410 disables the subscription; anything else (a redirect included) is retried ' +
    'with the same `webhook-id`, for about 27.5 hours by default (docs/webhooks.md, "Deliveries").',
  messages: [ref('channels', k.kind, 'messages', k.kind)],
  bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
  security: [ref('components', 'securitySchemes', SIGNATURE_SCHEME)],
});

/**
 * The AsyncAPI 3.0.0 document of a service's outbound webhooks (docs/webhooks.md): one channel
 * per kind, its address the kind, with one message whose payload is the body every delivery
 * has, `{type: <kind>, timestamp, data}`, `data` as the kind's schema says, and whose headers
 * are the Standard Webhooks ones; one `send` operation per channel with the HTTP binding
 * (POST) and the signature as its security scheme. The `ping` kind is added to `kinds`.
 * @throws Error when a kind is listed twice, or `ping` is listed.
 */
export function webhookAsyncApiDocument(opts: WebhookAsyncApiOptions): AsyncApiDocument {
  const kinds = [...opts.kinds, PING_KIND_DOC];
  const seen = new Set<string>();
  for (const { kind } of kinds) {
    if (seen.has(kind)) throw new Error(`webhook kind listed twice: ${kind}`);
    seen.add(kind);
  }
  return {
    asyncapi: '3.0.0',
    info: { title: opts.title, version: opts.version, description: opts.description },
    defaultContentType: 'application/json',
    servers: {
      subscriber: {
        host: '{host}',
        pathname: '/{path}',
        protocol: 'https',
        title: "The subscription's URL",
        description:
          "Every delivery is POSTed to the subscription's `url`: `https:` (plain `http:` only where " +
          '`WEBHOOK_ALLOW_HTTP` is set), never to a loopback, private or link-local address, and no ' +
          'redirect is followed.',
        variables: {
          host: { description: 'Host (and port) of the subscription URL.' },
          path: { description: 'Path (and query) of the subscription URL.' },
        },
      },
    },
    channels: Object.fromEntries(kinds.map((k) => [k.kind, channelOf(k)])),
    operations: Object.fromEntries(kinds.map((k) => [operationId(k.kind), operationOf(k)])),
    components: {
      schemas: { [HEADERS_SCHEMA]: standardWebhooksHeaders },
      securitySchemes: {
        [SIGNATURE_SCHEME]: {
          type: 'httpApiKey',
          name: 'webhook-signature',
          in: 'header',
          description:
            'Not a key the receiver checks for equality: the `webhook-signature` header is an HMAC-SHA256 ' +
            "of `<webhook-id>.<webhook-timestamp>.<raw body>` with the subscription's secret (given once, " +
            'when the subscription is created or its secret rotated). Verify it on the raw body with any ' +
            'Standard Webhooks library, e.g. `new Webhook(secret).verify(rawBody, headers)` of ' +
            '`standardwebhooks` on npm, and refuse what does not verify.',
        },
      },
    },
  };
}

/** `GET /asyncapi.json`: a service's webhook document, unauthenticated like `/openapi.json`. */
export function asyncApiRoute(document: AsyncApiDocument): Router {
  const router = Router();
  router.get('/asyncapi.json', (_req, res) => {
    res.json(document);
  });
  return router;
}
