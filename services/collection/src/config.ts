import { Joi, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';

/** The collection database; created if missing by `migrate`. */
export const collectionDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_collection',
);

export interface CollectionConfig extends ServiceVars {
  PORT: number;
  DATABASE_URL: string;
  /** Folder of the filesystem blob store (photos). */
  BLOB_DIR: string;
  /** Largest photo in bytes (413 above). */
  PHOTO_MAX_BYTES: number;
  /** Connections in the PostgreSQL pool. */
  DB_POOL_MAX: number;
  /** SMTP server of the e-mail worker (`smtp://user:pass@host:port` or `smtps://`). */
  SMTP_URL: string;
  /** Sender of the collection e-mails (submission notifications, export results). */
  MAIL_FROM: string;
}

const schema = Joi.object<CollectionConfig>({
  ...serviceEnv,
  PORT: Joi.number().port().default(8081),
  DATABASE_URL: collectionDatabaseUrl,
  BLOB_DIR: Joi.string().default('.local/blobs/collection'),
  PHOTO_MAX_BYTES: Joi.number()
    .integer()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  SMTP_URL: urlOf('smtp', 'smtps').default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().default('Fieldhouse <no-reply@fieldhouse.local>'),
});

/** Reads and validates the collection service's environment; fails fast naming each wrong variable. */
export const loadCollectionConfig = (
  env: Record<string, string | undefined> = process.env,
): CollectionConfig => loadConfig(schema, env);
