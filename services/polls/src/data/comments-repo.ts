import type { Collections } from './collections.ts';
import type { CommentDoc } from '../domain/types.ts';

/** Comments the poll's owner has not hidden (stored before hiding existed: no field). */
const NOT_HIDDEN = { hidden: { $ne: true as const } };

/** Comments of polls (docs/polls.md, "Comments"): threads by `root_id` and `ancestors`. */
export class CommentsRepo {
  private readonly c: Collections;

  constructor(c: Collections) {
    this.c = c;
  }

  /** The comment of this poll with this id, or null. */
  inPoll(pollId: string, commentId: string): Promise<CommentDoc | null> {
    return this.c.comments.findOne({ _id: commentId, poll_id: pollId });
  }

  async insert(doc: CommentDoc): Promise<void> {
    await this.c.comments.insertOne(doc);
  }

  /**
   * One page of a poll's top-level comments, newest first, and how many there are; hidden ones
   * only with `withHidden` (the poll's owner).
   */
  async pageOfRoots(
    pollId: string,
    skip: number,
    limit: number,
    withHidden = false,
  ): Promise<{ roots: CommentDoc[]; total: number }> {
    const filter = { poll_id: pollId, parent_id: null, ...(withHidden ? {} : NOT_HIDDEN) };
    const [roots, total] = await Promise.all([
      this.c.comments.find(filter).sort({ created_at: -1, _id: 1 }).skip(skip).limit(limit).toArray(),
      this.c.comments.countDocuments(filter),
    ]);
    return { roots, total };
  }

  /** Every reply in the threads of these top-level comments, oldest first (hidden ones with `withHidden`). */
  repliesOf(pollId: string, rootIds: string[], withHidden = false): Promise<CommentDoc[]> {
    if (!rootIds.length) return Promise.resolve([]);
    return this.c.comments
      .find({
        poll_id: pollId,
        root_id: { $in: rootIds },
        parent_id: { $ne: null },
        ...(withHidden ? {} : NOT_HIDDEN),
      })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
  }

  /** The `limit` newest comments of a poll that are not hidden, any depth. */
  newest(pollId: string, limit: number): Promise<CommentDoc[]> {
    return this.c.comments
      .find({ poll_id: pollId, ...NOT_HIDDEN })
      .sort({ created_at: -1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /** The time of a poll's n-th comment (1-based, oldest first), or null. */
  async timeOfNth(pollId: string, n: number): Promise<string | null> {
    const doc = await this.c.comments
      .find({ poll_id: pollId })
      .sort({ created_at: 1, _id: 1 })
      .skip(n - 1)
      .limit(1)
      .next();
    return doc?.created_at ?? null;
  }

  /**
   * Deletes a comment and every reply under it; resolves how many of them were not hidden (the
   * `comments` counter counts those only). The visible ones go first, so the count is exact.
   */
  async deleteWithReplies(pollId: string, commentId: string): Promise<number> {
    const subtree = { poll_id: pollId, $or: [{ _id: commentId }, { ancestors: commentId }] };
    const { deletedCount } = await this.c.comments.deleteMany({ ...subtree, ...NOT_HIDDEN });
    await this.c.comments.deleteMany(subtree);
    return deletedCount;
  }

  /**
   * Hides (`hidden` true) or shows again a comment and every reply under it (docs/polls.md,
   * "Comments"); resolves how many changed.
   */
  async setHidden(pollId: string, commentId: string, hidden: boolean): Promise<number> {
    const { modifiedCount } = await this.c.comments.updateMany(
      {
        poll_id: pollId,
        $or: [{ _id: commentId }, { ancestors: commentId }],
        ...(hidden ? NOT_HIDDEN : { hidden: true }),
      },
      hidden ? { $set: { hidden: true } } : { $unset: { hidden: '' } },
    );
    return modifiedCount;
  }
}
