import { createKnex } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker } from '@fieldhouse/messaging';
import { loadCollectionConfig } from '../config.ts';
import { startCollectionEmailWorker } from './email.ts';

/**
 * Collection worker process (`npm run worker -w @fieldhouse/collection`): the e-mail worker.
 * Variables: DATABASE_URL, AMQP_URL, AMQP_PREFIX, SMTP_URL (default smtp://127.0.0.1:1025),
 * MAIL_FROM. Stops cleanly on SIGINT/SIGTERM.
 */
const config = loadCollectionConfig();
const logger = createLogger({ service: 'collection-worker', level: config.LOG_LEVEL });
const db = createKnex(config.DATABASE_URL, { poolMax: 4 });
const broker = new Broker({
  url: config.AMQP_URL,
  logger,
  name: 'collection-worker',
  prefix: config.AMQP_PREFIX,
});
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const email = await startCollectionEmailWorker({ broker, db, mailer, logger });
logger.info('collection worker started', { smtp: config.SMTP_URL.replace(/\/\/[^@]*@/, '//***@') });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await email.close();
  await broker.close();
  mailer.close();
  await db.destroy();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
