import type { Db } from 'mongodb';
import { ensureWebhookIndexes } from '@fieldhouse/webhooks';
import { ensureInviteeIndexes } from '../data/invitees-repo.ts';
import { hideStoredParticipantNames } from './participant-names.ts';

/**
 * The polls database's collections and indexes, then its one-time data changes (each recorded in
 * the `migrations` collection). MongoDB has no schema migrations; this declares what the service
 * relies on (idempotent: run at every `migrate`, before the service serves). Every index here
 * works on FerretDB 1.24 too (plain and unique compound indexes only).
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('outbox').createIndex({ created_at: 1 });
  await db.collection('polls').createIndex({ owner_id: 1, created_at: -1 });
  // One counted vote per (poll, voter, n-th vote): two identical concurrent votes collide here.
  await db.collection('votes').createIndex({ poll_id: 1, voter_key: 1, seq: 1 }, { unique: true });
  await db.collection('votes').createIndex({ poll_id: 1, created_at: 1 });
  // The participants grid (newest first) and the votes export (oldest first) page through a
  // poll's votes by time with the id as tie-break: this index serves both sorts, either way.
  await db.collection('votes').createIndex({ poll_id: 1, created_at: 1, _id: 1 });
  await db.collection('pending_votes').createIndex({ code: 1 }, { unique: true });
  await db.collection('reactions').createIndex({ poll_id: 1 });
  await db.collection('comments').createIndex({ poll_id: 1, parent_id: 1, created_at: -1 });
  await db.collection('comments').createIndex({ poll_id: 1, root_id: 1 });
  // Webhook subscriptions (per poll) and their delivery log (docs/webhooks.md).
  await ensureWebhookIndexes(db, 'poll_id');
  // Invitees and the register of who voted (docs/polls.md, "Invited voters").
  await ensureInviteeIndexes(db);
  await hideStoredParticipantNames(db);
}
