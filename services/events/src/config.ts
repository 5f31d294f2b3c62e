import { Joi, loadConfig, serviceEnv, urlOf, type ServiceVars } from '@fieldhouse/config';

/** The events database; created if missing by `migrate`. */
export const eventsDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_events',
);

export interface EventsConfig extends ServiceVars {
  PORT: number;
  DATABASE_URL: string;
}

const schema = Joi.object<EventsConfig>({
  ...serviceEnv,
  PORT: Joi.number().port().default(8083),
  DATABASE_URL: eventsDatabaseUrl,
});

/** Reads and validates the events service's environment; fails fast naming each wrong variable. */
export const loadEventsConfig = (env: Record<string, string | undefined> = process.env): EventsConfig =>
  loadConfig(schema, env);
