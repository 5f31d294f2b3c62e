import { createKnex } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker } from '@fieldhouse/messaging';
import { loadEventsConfig } from '../config.ts';
import { startEventsEmailWorker } from './email.ts';

/**
 * Events e-mail worker process (`npm run worker -w @fieldhouse/events`): DATABASE_URL, AMQP_URL,
 * AMQP_PREFIX, SMTP_URL (default smtp://127.0.0.1:1025), MAIL_FROM. Stops cleanly on SIGINT/SIGTERM.
 */
const config = loadEventsConfig();
const logger = createLogger({ service: 'events-worker', level: config.LOG_LEVEL });
const db = createKnex(config.DATABASE_URL, { poolMax: 4 });
const broker = new Broker({
  url: config.AMQP_URL,
  logger,
  name: 'events-worker',
  prefix: config.AMQP_PREFIX,
});
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const worker = await startEventsEmailWorker({ broker, db, mailer, logger });
logger.info('events e-mail worker started', { smtp: config.SMTP_URL.replace(/\/\/[^@]*@/, '//***@') });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await worker.close();
  await broker.close();
  mailer.close();
  await db.destroy();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
