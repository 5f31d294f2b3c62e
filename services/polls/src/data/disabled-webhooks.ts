import type { Db } from 'mongodb';
import { webhookCollections } from '@fieldhouse/webhooks';
import { collections } from './collections.ts';

/** The polls database (MongoDB) as the domain names it, without importing the driver. */
export type PollsDb = Db;

/**
 * The address kept on a webhook subscription (`owner_email`, set when its owner last created or
 * changed it), or undefined when it has none (or is gone): where the disabled-webhook notice goes.
 */
export async function webhookOwnerEmail(db: PollsDb, subscriptionId: string): Promise<string | undefined> {
  const subscription = await webhookCollections(db).subscriptions.findOne({ _id: subscriptionId });
  const email = subscription?.owner_email;
  return typeof email === 'string' ? email : undefined;
}

/** The poll's id and title, or null when it is gone. */
export const pollTitle = (db: PollsDb, pollId: string): Promise<{ _id: string; title: string } | null> =>
  collections(db).polls.findOne({ _id: pollId }, { projection: { _id: 1, title: 1 } });
