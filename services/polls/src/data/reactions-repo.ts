import type { Collections } from './collections.ts';
import { isDuplicateKey } from './collections.ts';

/** Reactions: one document per voter and poll (`_id` `<poll id>:<voter key>`). */
export class ReactionsRepo {
  private readonly c: Collections;

  constructor(c: Collections) {
    this.c = c;
  }

  /**
   * Sets the voter's reaction on a poll (an upsert) and resolves the type it had before, or
   * null for a first reaction. Two concurrent first reactions of one voter both upsert: the one
   * that loses on the unique `_id` retries once and sees the other's as its previous one.
   */
  async set(pollId: string, voterKey: string, reactionType: string): Promise<string | null> {
    const update = () =>
      this.c.reactions.findOneAndUpdate(
        { _id: `${pollId}:${voterKey}` },
        {
          $set: { reaction_type: reactionType, updated_at: new Date().toISOString() },
          $setOnInsert: { poll_id: pollId, voter_key: voterKey },
        },
        { upsert: true, returnDocument: 'before' },
      );
    let before;
    try {
      before = await update();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      before = await update();
    }
    return before?.reaction_type ?? null;
  }
}
