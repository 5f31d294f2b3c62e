import type { Filter } from 'mongodb';
import type { Collections } from './collections.ts';
import { isDuplicateKey } from './collections.ts';
import type { PendingVoteDoc } from './documents.ts';

/** Pending votes waiting for their one-time password. */
export class PendingRepo {
  private readonly c: Collections;

  constructor(c: Collections) {
    this.c = c;
  }

  byCode(pollId: string, code: string): Promise<PendingVoteDoc | null> {
    return this.c.pending.findOne({ code, poll_id: pollId });
  }

  /**
   * Stores a new pending vote, replacing the voter's previous one when it can no longer be
   * verified at `nowIso`: verified, or expired (a locked one stays locked until it expires).
   * Resolves false when a live one exists (the voter must verify it first).
   */
  async put(doc: PendingVoteDoc, nowIso: string): Promise<boolean> {
    const replaceable: Filter<PendingVoteDoc> = {
      $or: [{ state: 'verified' }, { expires_at: { $lte: nowIso } }],
    };
    try {
      await this.c.pending.insertOne(doc);
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const replaced = await this.c.pending.findOneAndReplace({ _id: doc._id, ...replaceable }, doc);
    return replaced !== null;
  }

  /** Counts one wrong password while attempts remain; resolves the document after, or null. */
  failAttempt(id: string, maxAttempts: number): Promise<PendingVoteDoc | null> {
    return this.c.pending.findOneAndUpdate(
      { _id: id, state: 'pending', attempts: { $lt: maxAttempts } },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
  }

  /** Marks a live pending vote verified, atomically; resolves null when it was not live. */
  markVerified(id: string, maxAttempts: number, nowIso: string): Promise<PendingVoteDoc | null> {
    return this.c.pending.findOneAndUpdate(
      { _id: id, state: 'pending', attempts: { $lt: maxAttempts }, expires_at: { $gt: nowIso } },
      { $set: { state: 'verified' } },
      { returnDocument: 'after' },
    );
  }

  /** Removes a pending vote (its e-mail could not be queued). */
  async remove(id: string): Promise<void> {
    await this.c.pending.deleteOne({ _id: id });
  }
}
