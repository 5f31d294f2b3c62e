import { MongoClient } from 'mongodb';
import { Joi, loadConfig } from '@fieldhouse/config';
import { createLogger } from '@fieldhouse/logger';
import { mongoEnv } from './config.ts';
import { ensureIndexes } from './migrations/index.ts';

/** `npm run migrate`: creates the polls collections' indexes. */
const env = loadConfig(Joi.object<{ MONGO_URL: string; MONGO_DB: string }>(mongoEnv));
const logger = createLogger({ service: 'polls-migrate' });
const client = await MongoClient.connect(env.MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
try {
  await ensureIndexes(client.db(env.MONGO_DB));
  logger.info('polls indexes are in place');
} finally {
  await client.close();
}
