import { MongoClient } from 'mongodb';
import { createLogger, redactCredentials } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker, stopOnSignals } from '@fieldhouse/messaging';
import { loadPollsWorkerConfig } from '../config.ts';
import { startPollsEmailWorker } from './email-worker.ts';

/** Polls worker process: sends the one-time password e-mails queued by the service. */
const config = loadPollsWorkerConfig();
const logger = createLogger({ service: 'polls-worker', level: config.LOG_LEVEL });
const mongo = await MongoClient.connect(config.MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
const broker = new Broker({ url: config.AMQP_URL, logger, name: 'polls-worker', prefix: config.AMQP_PREFIX });
const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
const worker = await startPollsEmailWorker({ broker, mailer, db: mongo.db(config.MONGO_DB), logger });
logger.info('polls e-mail worker started', { smtp: redactCredentials(config.SMTP_URL) });

stopOnSignals(logger, [
  () => worker.close(),
  () => mailer.close(),
  () => broker.close(),
  () => mongo.close(),
]);
