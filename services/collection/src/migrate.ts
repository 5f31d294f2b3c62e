import { Joi, loadConfig } from '@fieldhouse/config';
import { migrateLatest } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { collectionDatabaseUrl } from './config.ts';
import { migrations } from './migrations/index.ts';

/** `npm run migrate`: creates the collection database if missing and applies pending migrations. */
const { DATABASE_URL } = loadConfig(
  Joi.object<{ DATABASE_URL: string }>({ DATABASE_URL: collectionDatabaseUrl }),
);
const logger = createLogger({ service: 'collection-migrate' });
const applied = await migrateLatest(DATABASE_URL, migrations);
logger.info(applied.length ? `applied ${applied.join(', ')}` : 'collection database is up to date');
