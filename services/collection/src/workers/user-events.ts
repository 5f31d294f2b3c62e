import type { Knex } from 'knex';
import type { Logger } from '@fieldhouse/logger';
import { inTransactionWith, startUserEventsConsumer, type Broker } from '@fieldhouse/messaging';
import { applyUserEvent } from '../domain/invitation-acceptance.ts';

/**
 * Keeps the users projection (members are added by `user_id` or `email`) current from the
 * gateway's `user.created` / `user.updated` events, once per message id; in the same
 * transaction, the open invitations of the user's address become memberships
 * (docs/collection.md, "Inviting by e-mail").
 */
export function startUsersProjection(broker: Broker, db: Knex, logger: Logger) {
  const ctx = { inTransaction: inTransactionWith(db, 'outbox') };
  return startUserEventsConsumer({
    broker,
    logger,
    queue: 'collection.users',
    apply: async (messageId, user) => {
      await applyUserEvent(ctx, messageId, user);
    },
  });
}
