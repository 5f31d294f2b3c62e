import { Joi, backingEnv, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';

export interface PollsConfig extends ServiceVars {
  PORT: number;
  MONGO_URL: string;
  MONGO_DB: string;
  REDIS_URL: string;
}

/** Where the polls live: a MongoDB (or FerretDB) server and database. */
export const mongoEnv = {
  MONGO_URL: urlOf('mongodb', 'mongodb+srv').default('mongodb://127.0.0.1:27017'),
  MONGO_DB: Joi.string().default('fieldhouse_polls'),
};

const schema = Joi.object<PollsConfig>({
  ...serviceEnv,
  ...mongoEnv,
  PORT: Joi.number().port().default(8082),
  REDIS_URL: backingEnv.REDIS_URL,
});

/** Reads and validates the polls service's environment; fails fast naming each wrong variable. */
export const loadPollsConfig = (env: Record<string, string | undefined> = process.env): PollsConfig =>
  loadConfig(schema, env);
