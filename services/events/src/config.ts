import { Joi, metricsPort, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';
import { webhookEnv, type WebhookVars } from '@fieldhouse/webhooks';

/** The events database; created if missing by `migrate`. */
export const eventsDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_events',
);

export interface EventsConfig extends ServiceVars, WebhookVars {
  PORT: number;
  /** Internal port of `/metrics`. */
  METRICS_PORT: number;
  DATABASE_URL: string;
  /** Knex pool size of the HTTP process. */
  DB_POOL_MAX: number;
  /** SMTP server of the e-mail worker (`smtp://user:pass@host:port` or `smtps://`). */
  SMTP_URL: string;
  /** Sender of the invitation e-mails. */
  MAIL_FROM: string;
  /** Base URL of the web console (the gateway), for scanner devices' setup URLs. */
  PUBLIC_URL: string;
  /**
   * Secret (at least 32 characters, e.g. 32 random bytes in base64url) every event's Ed25519 key
   * of signed invitation codes is derived from (docs/events.md, "Signed codes"). Unset: signed
   * codes are off. Never committed: set it in the deployment's secrets.
   */
  EVENTS_CODE_SIGNING_SECRET?: string;
}

const schema = Joi.object<EventsConfig>({
  ...serviceEnv,
  PORT: Joi.number().port().default(8083),
  METRICS_PORT: metricsPort(9083),
  DATABASE_URL: eventsDatabaseUrl,
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  SMTP_URL: urlOf('smtp', 'smtps').default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().default('Fieldhouse <no-reply@fieldhouse.local>'),
  PUBLIC_URL: urlOf('http', 'https')
    .default('http://localhost:8080')
    .custom((v: string) => v.replace(/\/+$/, '')),
  EVENTS_CODE_SIGNING_SECRET: Joi.string().min(32),
  ...webhookEnv,
});

/** Reads and validates the events service's environment; fails fast naming each wrong variable. */
export const loadEventsConfig = (env: Record<string, string | undefined> = process.env): EventsConfig =>
  loadConfig(schema, env);
