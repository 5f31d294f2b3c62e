import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';

/** What the route handlers need. */
export interface EventsContext {
  db: Knex;
  logger: Logger;
  /** Called after a commit that wrote to the outbox (main.ts kicks the outbox relay). */
  outboxWritten: () => void;
}
