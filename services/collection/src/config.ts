import { Joi, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';

/** The collection database; created if missing by `migrate`. */
export const collectionDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_collection',
);

export interface CollectionConfig extends ServiceVars {
  PORT: number;
  DATABASE_URL: string;
}

const schema = Joi.object<CollectionConfig>({
  ...serviceEnv,
  PORT: Joi.number().port().default(8081),
  DATABASE_URL: collectionDatabaseUrl,
});

/** Reads and validates the collection service's environment; fails fast naming each wrong variable. */
export const loadCollectionConfig = (
  env: Record<string, string | undefined> = process.env,
): CollectionConfig => loadConfig(schema, env);
