import { csvList, Joi } from '@fieldhouse/config';
import { AddressGuard } from './address-guard.ts';
import type { TargetPolicy } from './api.ts';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './schedule.ts';
import { WebhookSender } from './sender.ts';

/** The default of `WEBHOOK_MAX_SUBSCRIPTIONS`: subscriptions per poll, per event, per project. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 20;

/** The webhook variables of a service (docs/webhooks.md, "Settings"). */
export interface WebhookVars {
  /** Accept and call `http:` URLs (development); default false: only `https:`. */
  WEBHOOK_ALLOW_HTTP: boolean;
  /** Networks deliveries may reach although private or loopback, CIDR, comma-separated; default none. */
  WEBHOOK_ALLOWED_NETWORKS: string[];
  /** Delays before each retry, e.g. `5s,5m,30m,2h,5h,10h,10h` (the default). */
  WEBHOOK_RETRY_SCHEDULE: string;
  /** Deliveries failed for good in a row that disable a subscription; default 5. */
  WEBHOOK_DISABLE_AFTER: number;
  /** Longest attempt, ms; default 10,000. */
  WEBHOOK_TIMEOUT_MS: number;
  /** How long the previous secret keeps signing after a rotation, hours; default 24. */
  WEBHOOK_SECRET_OVERLAP_HOURS: number;
  /**
   * Most subscriptions per poll, per event, and reaching any one project of a workspace (active
   * or not); creating one more answers 422 `webhook_limit_reached`. Default 20.
   */
  WEBHOOK_MAX_SUBSCRIPTIONS: number;
}

/** Joi keys of {@link WebhookVars}, spread into a service's configuration schema. */
export const webhookEnv = {
  WEBHOOK_ALLOW_HTTP: Joi.boolean().default(false),
  WEBHOOK_ALLOWED_NETWORKS: csvList.default([]),
  WEBHOOK_RETRY_SCHEDULE: Joi.string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .custom((v: string) => (parseRetrySchedule(v), v)),
  WEBHOOK_DISABLE_AFTER: Joi.number().integer().min(1).max(1000).default(5),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(10_000),
  WEBHOOK_SECRET_OVERLAP_HOURS: Joi.number()
    .min(0)
    .max(24 * 30)
    .default(24),
  WEBHOOK_MAX_SUBSCRIPTIONS: Joi.number().integer().min(1).max(1000).default(DEFAULT_MAX_SUBSCRIPTIONS),
};

/** What the HTTP process needs: the target URL policy, the secret overlap, the subscription cap. */
export interface WebhookApiSettings {
  policy: TargetPolicy;
  secretOverlapMs: number;
  /** Most subscriptions per scope (poll, event, project); absent: {@link DEFAULT_MAX_SUBSCRIPTIONS}. */
  maxSubscriptions?: number;
}

/** The API settings of {@link WebhookVars}. */
export function webhookApiSettings(vars: WebhookVars): WebhookApiSettings {
  return {
    policy: { allowHttp: vars.WEBHOOK_ALLOW_HTTP, guard: new AddressGuard(vars.WEBHOOK_ALLOWED_NETWORKS) },
    secretOverlapMs: vars.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
    maxSubscriptions: vars.WEBHOOK_MAX_SUBSCRIPTIONS,
  };
}

/** The delivery worker's settings of {@link WebhookVars}: a sender and the options of `startWebhookWorker`. */
export function webhookWorkerSettings(vars: WebhookVars) {
  return {
    sender: new WebhookSender({
      guard: new AddressGuard(vars.WEBHOOK_ALLOWED_NETWORKS),
      allowHttp: vars.WEBHOOK_ALLOW_HTTP,
      timeoutMs: vars.WEBHOOK_TIMEOUT_MS,
    }),
    retryScheduleMs: parseRetrySchedule(vars.WEBHOOK_RETRY_SCHEDULE),
    disableAfter: vars.WEBHOOK_DISABLE_AFTER,
    attemptTimeoutMs: vars.WEBHOOK_TIMEOUT_MS,
  };
}

/** The defaults of {@link WebhookVars} (those of {@link webhookEnv}): https only, no private network, the default schedule. */
export const webhookEnvDefaults: WebhookVars = Joi.object<WebhookVars>(webhookEnv).validate({}).value!;
