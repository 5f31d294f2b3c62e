/** What the PostgreSQL and MongoDB delivery stores share. */
import { ownerOf, type AttemptPlan } from './types.ts';

/** Claims at most this many due deliveries of one subscription per round, so none hogs the queue. */
export const PER_SUBSCRIPTION_CLAIM = 20;

/**
 * Claims at most this many due deliveries of one owner (the subscriptions' creator) per round:
 * twice the worker's default attempts per owner (16 running, 16 waiting), so a healthy owner's
 * backlog keeps its slots busy while a saturated one's is not claimed and put back by the
 * thousand every round (issue 31: 1,200 deliveries to dead receivers).
 */
export const PER_OWNER_CLAIM = 32;

/** The delivery and subscription columns an attempt plan is made of. */
export interface PlanRow {
  id: string;
  subscription_id: string;
  url: string;
  secret: string;
  active: boolean;
  previous_secret: string | null;
  /** The user who created the subscription (its owner for the worker's fair share), or null. */
  created_by: number | null;
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
  owner: ownerOf(r.subscription_id, r.created_by),
  ...rest,
});
