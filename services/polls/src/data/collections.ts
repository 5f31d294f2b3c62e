import type { Db } from 'mongodb';
import type { CommentDoc, PollDoc, VoteDoc } from '../domain/types.ts';
import type {
  InviteeDoc,
  OutboxDoc,
  PendingVoteDoc,
  ReactionDoc,
  RegisterDoc,
  SentMailDoc,
} from './documents.ts';

/** The polls database's collections, typed. */
export function collections(db: Db) {
  return {
    polls: db.collection<PollDoc>('polls'),
    votes: db.collection<VoteDoc>('votes'),
    pending: db.collection<PendingVoteDoc>('pending_votes'),
    reactions: db.collection<ReactionDoc>('reactions'),
    comments: db.collection<CommentDoc>('comments'),
    outbox: db.collection<OutboxDoc>('outbox'),
    sentMail: db.collection<SentMailDoc>('sent_mail'),
    /** Invitees and the register of who voted (docs/polls.md, "Invited voters"). */
    invitees: db.collection<InviteeDoc>('poll_invitees'),
    /** Who cast a ballot on a poll of signed-in users with anonymous ballots. */
    register: db.collection<RegisterDoc>('ballot_register'),
  };
}
export type Collections = ReturnType<typeof collections>;

/** Whether a MongoDB error is a duplicate key (unique index) violation. */
export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;
