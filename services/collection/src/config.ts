import { webhookEnv, type WebhookVars } from '@fieldhouse/webhooks';
import { Joi, metricsPort, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';
import { blobEnv, type BlobVars } from './blob/blob-config.ts';

/** The collection database; created if missing by `migrate`. */
export const collectionDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_collection',
);

export interface CollectionConfig extends ServiceVars, WebhookVars, BlobVars {
  PORT: number;
  /** Internal port of `/metrics`. */
  METRICS_PORT: number;
  DATABASE_URL: string;
  /** Largest photo in bytes (413 above). */
  PHOTO_MAX_BYTES: number;
  /** Connections in the PostgreSQL pool. */
  DB_POOL_MAX: number;
  /** SMTP server of the e-mail worker (`smtp://user:pass@host:port` or `smtps://`). */
  SMTP_URL: string;
  /** Sender of the collection e-mails (submission notifications, export results). */
  MAIL_FROM: string;
  /** How long a finished export file stays downloadable, in hours; then the sweep deletes it. */
  EXPORT_TTL_HOURS: number;
  /**
   * Lease of a running export (seconds): renewed every third of it while the worker runs; once
   * it lapsed the job is taken over (docs/reliability.md, "Exports").
   */
  EXPORT_LEASE_SECONDS: number;
  /** Interval of the export sweep (expired files, jobs whose lease lapsed), in seconds; at most 30. */
  EXPORT_SWEEP_SECONDS: number;
  /** Public address of the gateway, for the links in e-mails (no trailing slash). */
  PUBLIC_URL: string;
}

const schema = Joi.object<CollectionConfig>({
  ...serviceEnv,
  PORT: Joi.number().port().default(8081),
  METRICS_PORT: metricsPort(9081),
  DATABASE_URL: collectionDatabaseUrl,
  ...blobEnv,
  PHOTO_MAX_BYTES: Joi.number()
    .integer()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  SMTP_URL: urlOf('smtp', 'smtps').default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().default('Fieldhouse <no-reply@fieldhouse.local>'),
  EXPORT_TTL_HOURS: Joi.number()
    .min(0.001)
    .max(24 * 365)
    .default(24),
  // lease + sweep <= 60 s keeps the promise of docs/reliability.md, "Exports"
  EXPORT_LEASE_SECONDS: Joi.number().integer().min(1).max(30).default(15),
  EXPORT_SWEEP_SECONDS: Joi.number().integer().min(1).max(30).default(10),
  PUBLIC_URL: urlOf('http', 'https')
    .default('http://localhost:8080')
    .custom((v: string) => v.replace(/\/+$/, '')),
  ...webhookEnv,
});

/** Reads and validates the collection service's environment; fails fast naming each wrong variable. */
export const loadCollectionConfig = (
  env: Record<string, string | undefined> = process.env,
): CollectionConfig => loadConfig(schema, env);
