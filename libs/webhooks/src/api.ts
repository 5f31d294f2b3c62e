import { Joi } from '@fieldhouse/config';
import type { AddressGuard } from './address-guard.ts';
import type { AttemptRow, DeliveryRow, SubscriptionRow } from './rows.ts';
import type { DeliveryStatus, DisabledReason } from './types.ts';

/** A subscription as the API shows it (the secret only in the creation and rotation answers). */
export interface WebhookSubscription {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  /** Why it is off: `by_owner`, `gone` (the receiver answered 410), `failing` (deliveries failed in a row). */
  disabled_reason: DisabledReason | null;
  disabled_at: string | null;
  /** Deliveries failed for good in a row (0 after a success; `WEBHOOK_DISABLE_AFTER` turns it off). */
  failure_streak: number;
  /** Until when the previous secret still signs alongside the current one, after a rotation. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  [scope: string]: unknown;
}

/** A delivery as the API shows it (`event` is its kind; `message_id` the `webhook-id` header sent). */
export interface WebhookDelivery {
  id: string;
  event: string;
  message_id: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The API shape of a subscription row; `scopeKeys` are the scope columns shown (`event_id`...). */
export function subscriptionView(row: SubscriptionRow, scopeKeys: string[]): WebhookSubscription {
  return {
    id: row.id,
    ...Object.fromEntries(scopeKeys.map((k) => [k, row[k] ?? null])),
    url: row.url,
    events: row.events,
    description: row.description,
    active: row.active,
    disabled_reason: row.disabled_reason,
    disabled_at: iso(row.disabled_at),
    failure_streak: row.failure_streak ?? 0,
    previous_secret_expires_at:
      row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
        ? row.previous_secret_expires_at.toISOString()
        : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The API shape of a delivery row. */
export function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.kind,
    message_id: row.message_id,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    duration_ms: row.duration_ms,
    response_body: row.response_body,
    error: row.error,
    created_at: row.created_at.toISOString(),
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
  };
}

/** A delivery with the payload sent and every attempt. */
export function deliveryDetailView(found: { row: DeliveryRow; attempts: AttemptRow[]; body: string }) {
  return {
    ...deliveryView(found.row),
    payload: JSON.parse(found.body) as unknown,
    attempt_log: found.attempts.map((a) => ({
      attempted_at: a.attempted_at.toISOString(),
      response_status: a.response_status,
      duration_ms: a.duration_ms,
      response_body: a.response_body,
      error: a.error,
    })),
  };
}

/** What decides which target URLs a subscription may have (docs/webhooks.md, "Security"). */
export interface TargetPolicy {
  /** Whether `http:` URLs are accepted (development); else only `https:`. */
  allowHttp: boolean;
  /** The delivery guard: an IP literal it refuses is refused at once. */
  guard: AddressGuard;
}

/**
 * A target URL: `http:` or `https:`, at most 2,000 characters. Whether plain `http:` and IP
 * literals are allowed is the deployment's policy, checked by the use case (`checkTargetUrl`).
 */
const targetUrlSchema = () =>
  Joi.string()
    .trim()
    .max(2000)
    .uri({ scheme: ['https', 'http'] })
    .messages({ 'string.uriCustomScheme': '{{#label}} must be an https URL' })
    .description('Where deliveries are POSTed: `https:` (plain `http:` only where the deployment allows it)');

/** The kinds a subscription takes: 1 to all of `kinds`, each once. */
const kindsSchema = (kinds: readonly string[]) =>
  Joi.array()
    .items(Joi.string().valid(...kinds))
    .min(1)
    .unique()
    .description(`Event kinds delivered: ${kinds.map((k) => `\`${k}\``).join(', ')}`);

/** `POST .../webhooks`: `{url, events, description?, active?}`, plus the area's own keys. */
export function webhookCreateSchema(kinds: readonly string[], extra: Joi.PartialSchemaMap = {}) {
  return Joi.object({
    url: targetUrlSchema().required(),
    events: kindsSchema(kinds).required(),
    description: Joi.string().trim().max(500).allow('', null),
    active: Joi.boolean().default(true),
    ...extra,
  });
}

/** `PATCH .../webhooks/{webhook_id}`: any of the creation keys; turning `active` back on clears the failure streak. */
export function webhookPatchSchema(kinds: readonly string[], extra: Joi.PartialSchemaMap = {}) {
  return Joi.object({
    url: targetUrlSchema(),
    events: kindsSchema(kinds),
    description: Joi.string().trim().max(500).allow('', null),
    active: Joi.boolean(),
    ...extra,
  }).min(1);
}

/** `GET .../deliveries` query: `status`, `event` (a kind), `page`, `per_page`. */
export const deliveryQuerySchema = {
  status: Joi.string().valid('pending', 'succeeded', 'failed'),
  event: Joi.string().max(100),
};

/** `POST .../webhooks/{webhook_id}/redeliver-failed`: `{since}` (ISO 8601): failed deliveries created since then. */
export const redeliverFailedSchema = Joi.object<{ since: Date }>({
  since: Joi.date().iso().required().description('Deliveries created at or after this time (ISO 8601)'),
});

const nullableDate = Joi.string().isoDate().allow(null).required();

/** The response schema of a subscription, with the area's scope keys. */
export function subscriptionSchema(scope: Joi.PartialSchemaMap) {
  return Joi.object({
    id: Joi.string().uuid().required(),
    ...scope,
    url: Joi.string().required(),
    events: Joi.array().items(Joi.string()).required(),
    description: Joi.string().allow(null).required(),
    active: Joi.boolean().required(),
    disabled_reason: Joi.string()
      .valid('by_owner', 'gone', 'failing')
      .allow(null)
      .required()
      .description(
        '`by_owner`; `gone` (the receiver answered 410); `failing` (deliveries failed for good in a row)',
      ),
    disabled_at: nullableDate,
    failure_streak: Joi.number()
      .integer()
      .min(0)
      .required()
      .description(
        'Deliveries failed for good in a row (0 after any success); this many (5 by default) turn the webhook off (`failing`)',
      ),
    previous_secret_expires_at: nullableDate.description(
      'Until when the previous secret still signs, after a rotation',
    ),
    created_at: Joi.string().isoDate().required(),
    updated_at: Joi.string().isoDate().required(),
  });
}

/** The signing secret, in creation and rotation answers only. */
export const secretKey = {
  secret: Joi.string()
    .pattern(/^whsec_/)
    .required()
    .description(
      'The signing secret (`whsec_…`), shown once: verify deliveries with a Standard Webhooks library',
    ),
};

/** The response schema of a delivery. */
export const deliverySchema = Joi.object({
  id: Joi.string().uuid().required(),
  event: Joi.string().required().description('The event kind'),
  message_id: Joi.string().required().description('The `webhook-id` header sent, the same on every attempt'),
  status: Joi.string().valid('pending', 'succeeded', 'failed').required(),
  attempts: Joi.number().integer().min(0).required(),
  response_status: Joi.number().integer().allow(null).required(),
  duration_ms: Joi.number().integer().allow(null).required(),
  response_body: Joi.string()
    .allow('', null)
    .required()
    .description('The start of the last answer (1 KiB at most)'),
  error: Joi.string().allow(null).required().description('Why the last attempt got no answer'),
  created_at: Joi.string().isoDate().required(),
  last_attempt_at: nullableDate,
  next_attempt_at: nullableDate.description('When the next attempt is due (pending only)'),
});

/** The response schema of a delivery with its payload and attempts. */
export const deliveryDetailSchema = deliverySchema.keys({
  payload: Joi.object({
    type: Joi.string().required(),
    timestamp: Joi.string().isoDate().required(),
    data: Joi.object().unknown(true).required(),
  })
    .required()
    .description('The body sent (docs/webhooks.md lists the `data` of each kind)'),
  attempt_log: Joi.array()
    .items(
      Joi.object({
        attempted_at: Joi.string().isoDate().required(),
        response_status: Joi.number().integer().allow(null).required(),
        duration_ms: Joi.number().integer().required(),
        response_body: Joi.string().allow('', null).required(),
        error: Joi.string().allow(null).required(),
      }),
    )
    .required(),
});
