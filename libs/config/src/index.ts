import Joi from 'joi';

export { Joi };

/** Thrown at start-up when the environment does not satisfy a service's schema. */
export class ConfigError extends Error {
  /** Names of the variables that are missing or wrong, e.g. `['DATABASE_URL', 'PORT']`. */
  readonly variables: string[];

  constructor(details: Joi.ValidationErrorItem[]) {
    const variables = [...new Set(details.map((d) => String(d.path[0] ?? d.context?.key ?? '?')))];
    super(
      `Invalid configuration: ${variables.join(', ')}\n` + details.map((d) => `  - ${d.message}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.variables = variables;
  }
}

/**
 * Validates environment variables against a joi schema whose keys are the variable names
 * (UPPER_SNAKE_CASE) and returns the converted values (numbers, booleans, defaults applied).
 *
 * Every wrong or missing variable is reported at once (never only the first one), so a
 * service fails fast at start-up with a message naming them all.
 *
 * @throws ConfigError listing each offending variable.
 */
export function loadConfig<T extends object>(
  schema: Joi.ObjectSchema<T>,
  env: Record<string, string | undefined> = process.env,
): T {
  const { value, error } = schema.unknown(true).validate(env, {
    abortEarly: false,
    convert: true,
    stripUnknown: false,
  });
  if (error) throw new ConfigError(error.details);
  return value as T;
}

/**
 * Variables every HTTP process understands. Spread into a service's schema, which adds its
 * `PORT` and its `METRICS_PORT` ({@link metricsPort}).
 */
export const commonEnv = {
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'info', 'http', 'debug', 'silent').default('info'),
  /** Address of the API port: loopback unless set (containers set `0.0.0.0`). */
  HOST: Joi.string().default('127.0.0.1'),
  /** Address of the internal metrics port (`METRICS_PORT` is in each process's schema). */
  METRICS_HOST: Joi.string().default('127.0.0.1'),
  /** Largest JSON body accepted, as understood by body-parser (`100kb`, `1mb`...). */
  BODY_LIMIT: Joi.string().default('1mb'),
  /** How long a stopping server waits for in-flight requests before closing sockets (ms). */
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(10_000),
};

/**
 * `METRICS_PORT`: the internal port that serves `/metrics` (never the API port); 0 picks a free
 * one. Each process has its own default so that a whole stack fits on one host.
 */
export const metricsPort = (defaultPort: number) => Joi.number().port().default(defaultPort);

/** A connection URL with one of the given schemes (`postgres`, `redis`, `amqp`...). */
export function urlOf(...schemes: string[]): Joi.StringSchema {
  return Joi.string().uri({ scheme: schemes });
}

/** A comma-separated list, converted to a trimmed array without empty items. */
export const csvList = Joi.alternatives()
  .try(Joi.array().items(Joi.string()), Joi.string().allow(''))
  .custom((v: string | string[]) =>
    (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean),
  );

/** Defaults of the backing services on a developer machine (README, "Environment"). */
export const backingEnv = {
  AMQP_URL: urlOf('amqp', 'amqps').default('amqp://guest:guest@127.0.0.1:5672'),
  /** Prefix of every RabbitMQ exchange and queue name (empty in production). */
  AMQP_PREFIX: Joi.string().allow('').default(''),
  REDIS_URL: urlOf('redis', 'rediss').default('redis://127.0.0.1:6379'),
};

/** Variables of every service behind the gateway: how to verify the gateway's internal JWTs. */
export const serviceEnv = {
  ...commonEnv,
  AMQP_URL: backingEnv.AMQP_URL,
  AMQP_PREFIX: backingEnv.AMQP_PREFIX,
  GATEWAY_JWKS_URL: urlOf('http', 'https').default('http://127.0.0.1:8080/.well-known/jwks.json'),
  INTERNAL_JWT_ISSUER: Joi.string().default('fieldhouse-gateway'),
};

/** The validated values of {@link serviceEnv}. */
export interface ServiceVars {
  NODE_ENV: string;
  LOG_LEVEL: string;
  HOST: string;
  METRICS_HOST: string;
  BODY_LIMIT: string;
  SHUTDOWN_TIMEOUT_MS: number;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  GATEWAY_JWKS_URL: string;
  INTERNAL_JWT_ISSUER: string;
}
