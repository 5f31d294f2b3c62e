import {
  Joi,
  metricsPort,
  backingEnv,
  loadConfig,
  serviceEnv,
  urlOf,
  type ServiceVars,
} from '@fieldhouse/config';
import { webhookEnv, type WebhookVars } from '@fieldhouse/webhooks';
import { DEFAULT_POLLS_SETTINGS as DEFAULTS } from './domain/context.ts';

export interface PollsConfig extends ServiceVars, WebhookVars {
  PORT: number;
  /** Internal port of `/metrics`. */
  METRICS_PORT: number;
  MONGO_URL: string;
  MONGO_DB: string;
  MONGO_MAX_POOL_SIZE: number;
  /** An operation whose MongoDB connection brings no answer for this long fails, ms (default 3,000). */
  MONGO_SOCKET_TIMEOUT_MS: number;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  OTP_TTL_SECONDS: number;
  OTP_MAX_ATTEMPTS: number;
  COMMENTS_PER_MINUTE: number;
  REACTIONS_PER_MINUTE: number;
  SSE_HEARTBEAT_MS: number;
  SSE_WRITES_PER_SECOND: number;
  RECONCILE_INTERVAL_MS: number;
  RECONCILE_GRACE_MS: number;
  ENDED_POLLS_INTERVAL_MS: number;
  /** Largest age (ms) of results shown while a recompute is in flight (docs/polls.md, "Freshness while votes arrive"). */
  RESULTS_MAX_STALE_MS: number;
  /** The console's public address, for the personal links of invitations (docs/polls.md, "Invited voters"). */
  PUBLIC_URL: string;
}

/** Where the polls live: a MongoDB (or FerretDB) server and database. */
export const mongoEnv = {
  MONGO_URL: urlOf('mongodb', 'mongodb+srv').default('mongodb://127.0.0.1:27017'),
  MONGO_DB: Joi.string().default('fieldhouse_polls'),
  MONGO_SOCKET_TIMEOUT_MS: Joi.number().integer().min(500).max(600_000).default(3_000),
};

const schema = Joi.object<PollsConfig>({
  ...serviceEnv,
  ...mongoEnv,
  PORT: Joi.number().port().default(8082),
  METRICS_PORT: metricsPort(9082),
  /**
   * Most concurrent MongoDB operations of one process (the driver's `maxPoolSize`). 16 by
   * default: FerretDB on SQLite writes one document at a time, and more concurrent inserts only
   * queue inside it (docs/polls.md, "Throughput"); raise it for a MongoDB server.
   */
  MONGO_MAX_POOL_SIZE: Joi.number().integer().min(1).max(1000).default(16),
  REDIS_URL: backingEnv.REDIS_URL,
  REDIS_PREFIX: Joi.string().allow('').default('polls:'),
  // The defaults are the domain's (one table: DEFAULT_POLLS_SETTINGS).
  OTP_TTL_SECONDS: Joi.number().integer().min(10).max(86_400).default(DEFAULTS.otpTtlSeconds),
  OTP_MAX_ATTEMPTS: Joi.number().integer().min(1).max(20).default(DEFAULTS.otpMaxAttempts),
  COMMENTS_PER_MINUTE: Joi.number().integer().min(1).default(DEFAULTS.commentsPerMinute),
  REACTIONS_PER_MINUTE: Joi.number().integer().min(1).default(DEFAULTS.reactionsPerMinute),
  SSE_HEARTBEAT_MS: Joi.number().integer().min(1000).default(DEFAULTS.sseHeartbeatMs),
  SSE_WRITES_PER_SECOND: Joi.number().integer().min(100).default(DEFAULTS.sseWritesPerSecond),
  RECONCILE_INTERVAL_MS: Joi.number().integer().min(0).default(DEFAULTS.reconcileIntervalMs),
  RECONCILE_GRACE_MS: Joi.number().integer().min(1000).default(DEFAULTS.reconcileGraceMs),
  ENDED_POLLS_INTERVAL_MS: Joi.number().integer().min(0).default(DEFAULTS.endedPollsIntervalMs),
  RESULTS_MAX_STALE_MS: Joi.number().integer().min(0).max(10_000).default(DEFAULTS.resultsMaxStaleMs),
  PUBLIC_URL: urlOf('http', 'https')
    .default(DEFAULTS.publicUrl)
    .custom((v: string) => v.replace(/\/+$/, '')),
  ...webhookEnv,
});

/** Reads and validates the polls service's environment; fails fast naming each wrong variable. */
export const loadPollsConfig = (env: Record<string, string | undefined> = process.env): PollsConfig =>
  loadConfig(schema, env);

/**
 * The worker's variables: MongoDB, RabbitMQ, the SMTP server, the webhook delivery settings and
 * the console's address (`PUBLIC_URL`, default `http://localhost:8080`: links in e-mails).
 */
export interface PollsWorkerConfig extends WebhookVars {
  NODE_ENV: string;
  LOG_LEVEL: string;
  MONGO_URL: string;
  MONGO_DB: string;
  MONGO_SOCKET_TIMEOUT_MS: number;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  SMTP_URL: string;
  MAIL_FROM: string;
  /** The console's public address (the gateway), for the links in e-mails (no trailing slash). */
  PUBLIC_URL: string;
}

const workerSchema = Joi.object<PollsWorkerConfig>({
  NODE_ENV: serviceEnv.NODE_ENV,
  LOG_LEVEL: serviceEnv.LOG_LEVEL,
  ...mongoEnv,
  AMQP_URL: backingEnv.AMQP_URL,
  AMQP_PREFIX: backingEnv.AMQP_PREFIX,
  SMTP_URL: urlOf('smtp', 'smtps').default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().default('Fieldhouse Polls <no-reply@fieldhouse.local>'),
  PUBLIC_URL: urlOf('http', 'https')
    .default('http://localhost:8080')
    .custom((v: string) => v.replace(/\/+$/, '')),
  ...webhookEnv,
}).unknown(true);

/** Reads and validates the polls worker's environment. */
export const loadPollsWorkerConfig = (
  env: Record<string, string | undefined> = process.env,
): PollsWorkerConfig => loadConfig(workerSchema, env);
