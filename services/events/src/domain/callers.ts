import { upsertCaller, type UserRow } from '../data/users.ts';
import type { EventsContext } from './context.ts';

/**
 * Records the caller in the users projection as the gateway's JWT describes them (id, name,
 * e-mail), so a user who called once can be made staff by e-mail before their user event arrives.
 */
export async function recordCaller(ctx: EventsContext, user: UserRow): Promise<void> {
  await upsertCaller(ctx.db, user);
}
