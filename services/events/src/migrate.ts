import { Joi, loadConfig } from '@fieldhouse/config';
import { migrateLatest } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { eventsDatabaseUrl } from './config.ts';
import { migrations } from './migrations/index.ts';

/** `npm run migrate`: creates the events database if missing and applies pending migrations. */
const { DATABASE_URL } = loadConfig(
  Joi.object<{ DATABASE_URL: string }>({ DATABASE_URL: eventsDatabaseUrl }),
);
const logger = createLogger({ service: 'events-migrate' });
const applied = await migrateLatest(DATABASE_URL, migrations);
logger.info(applied.length ? `applied ${applied.join(', ')}` : 'events database is up to date');
