import type { Logger } from '@fieldhouse/logger';
import { Exchanges, IdentityEvents, userPayloadSchema, type UserPayload } from '@fieldhouse/contracts';
import type { Broker } from './broker.ts';
import { PermanentError, startConsumer } from './consumer.ts';

export interface UserEventsOptions {
  broker: Broker;
  logger: Logger;
  /** The consuming service's queue, e.g. `collection.users`. */
  queue: string;
  /**
   * Applies a user's newest profile to the service's projection, idempotently: called with the
   * envelope id (to record) and the payload; a projection keeps the version with the latest
   * `updated_at`, so replays and out-of-order deliveries change nothing.
   */
  apply: (messageId: string, user: UserPayload) => Promise<void>;
}

/**
 * Consumes the gateway's `user.created` and `user.updated` events (design.md: services keep a
 * projection of users) with the retries and dead-letter queue of {@link startConsumer}.
 */
export function startUserEventsConsumer(opts: UserEventsOptions) {
  return startConsumer(opts.broker, {
    queue: opts.queue,
    bindings: [
      { exchange: Exchanges.identity, pattern: IdentityEvents.userCreated },
      { exchange: Exchanges.identity, pattern: IdentityEvents.userUpdated },
    ],
    logger: opts.logger,
    handler: async (message) => {
      const { value, error } = userPayloadSchema.validate(message.data);
      if (error) throw new PermanentError(`invalid user payload: ${error.message}`);
      await opts.apply(message.id, value);
    },
  });
}
