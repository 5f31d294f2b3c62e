import type { Db } from 'mongodb';
import { webhookCollections } from '@fieldhouse/webhooks';
import { collections } from './collections.ts';

/**
 * The reads of the disabled-webhook notice in the polls database: the address kept on a
 * subscription (`owner_email`, set when its owner last created or changed it) and the poll's
 * title.
 */
export const disabledWebhookReads = (db: Db) => ({
  /** The subscription's `owner_email`, or undefined when it has none (or is gone). */
  async ownerEmail(subscriptionId: string): Promise<string | undefined> {
    const subscription = await webhookCollections(db).subscriptions.findOne({ _id: subscriptionId });
    const email = subscription?.owner_email;
    return typeof email === 'string' ? email : undefined;
  },
  /** The poll's id and title, or null when it is gone. */
  poll: (pollId: string): Promise<{ _id: string; title: string } | null> =>
    collections(db).polls.findOne({ _id: pollId }, { projection: { _id: 1, title: 1 } }),
});

/** The reads of the disabled-webhook notice, bound to a database. */
export type DisabledWebhookReads = ReturnType<typeof disabledWebhookReads>;
