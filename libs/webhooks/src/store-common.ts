/** What the PostgreSQL and MongoDB delivery stores share. */
import type { AttemptPlan } from './types.ts';

/** Claims at most this many due deliveries of one subscription per round, so none hogs the queue. */
export const PER_SUBSCRIPTION_CLAIM = 20;

/** The delivery and subscription columns an attempt plan is made of. */
export interface PlanRow {
  id: string;
  subscription_id: string;
  url: string;
  secret: string;
  active: boolean;
  previous_secret: string | null;
}

/** An attempt plan from its delivery and subscription columns and the rest. */
export const planOf = (
  r: PlanRow,
  rest: Pick<AttemptPlan, 'messageId' | 'kind' | 'body' | 'scope' | 'roundAttempts' | 'token'>,
): AttemptPlan => ({
  deliveryId: r.id,
  subscriptionId: r.subscription_id,
  url: r.url,
  secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret],
  active: r.active,
  ...rest,
});
