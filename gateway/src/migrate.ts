import { createLogger } from '@fieldhouse/logger';
import { migrateLatest } from '@fieldhouse/db';
import { Joi, loadConfig } from '@fieldhouse/config';
import { identityDatabaseUrl } from './config.ts';
import { migrations } from './migrations/index.ts';

/** `npm run migrate`: creates the identity database if missing and applies pending migrations. */
const { DATABASE_URL } = loadConfig(
  Joi.object<{ DATABASE_URL: string }>({
    DATABASE_URL: identityDatabaseUrl,
  }),
);
const logger = createLogger({ service: 'gateway-migrate' });
const applied = await migrateLatest(DATABASE_URL, migrations);
logger.info(applied.length ? `applied ${applied.join(', ')}` : 'identity database is up to date');
