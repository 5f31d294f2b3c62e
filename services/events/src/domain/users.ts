import type { UserPayload } from '@fieldhouse/contracts';
import { recordUserEvent } from '../data/users.ts';
import type { EventsContext } from './context.ts';

/**
 * Applies a gateway `user.created` / `user.updated` event to the users projection (names and
 * addresses of owners, staff and e-mail recipients), in one transaction, once per message id:
 * the newest `updated_at` wins, so replays and out-of-order deliveries change nothing
 * (libs/users-projection's rules).
 * @returns false for a message already applied.
 */
export const applyUserEvent = (
  ctx: Pick<EventsContext, 'inTransaction'>,
  messageId: string,
  user: UserPayload,
): Promise<boolean> => ctx.inTransaction((tx) => recordUserEvent(tx, messageId, user));
