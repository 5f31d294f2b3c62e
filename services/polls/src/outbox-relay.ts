import type { Db } from 'mongodb';
import type { Logger } from '@fieldhouse/logger';
import { OutboxRelay, type Broker } from '@fieldhouse/messaging';
import { collections } from './data/collections.ts';
import { MongoOutboxStore } from './data/outbox.ts';

/**
 * The relay of the polls outbox collection to RabbitMQ (docs/architecture.md, "The outbox
 * relay"): the process entry (main.ts) starts it and gives `createPollsApp` its kick as
 * `outboxWritten`, as the other services do with their outbox table.
 */
export const pollsOutboxRelay = (db: Db, broker: Broker, logger: Logger): OutboxRelay =>
  new OutboxRelay({ store: new MongoOutboxStore(collections(db)), broker, logger });
