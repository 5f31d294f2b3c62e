import type { Collections } from './collections.ts';
import type { CommentDoc } from '../domain/types.ts';

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

  /** One page of a poll's top-level comments, newest first, and how many there are. */
  async pageOfRoots(
    pollId: string,
    skip: number,
    limit: number,
  ): Promise<{ roots: CommentDoc[]; total: number }> {
    const filter = { poll_id: pollId, parent_id: null };
    const [roots, total] = await Promise.all([
      this.c.comments.find(filter).sort({ created_at: -1, _id: 1 }).skip(skip).limit(limit).toArray(),
      this.c.comments.countDocuments(filter),
    ]);
    return { roots, total };
  }

  /** Every reply in the threads of these top-level comments, oldest first. */
  repliesOf(pollId: string, rootIds: string[]): Promise<CommentDoc[]> {
    if (!rootIds.length) return Promise.resolve([]);
    return this.c.comments
      .find({ poll_id: pollId, root_id: { $in: rootIds }, parent_id: { $ne: null } })
      .sort({ created_at: 1, _id: 1 })
      .toArray();
  }

  /** The `limit` newest comments of a poll, any depth. */
  newest(pollId: string, limit: number): Promise<CommentDoc[]> {
    return this.c.comments.find({ poll_id: pollId }).sort({ created_at: -1, _id: 1 }).limit(limit).toArray();
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

  /** Deletes a comment and every reply under it; resolves how many were deleted. */
  async deleteWithReplies(pollId: string, commentId: string): Promise<number> {
    const { deletedCount } = await this.c.comments.deleteMany({
      poll_id: pollId,
      $or: [{ _id: commentId }, { ancestors: commentId }],
    });
    return deletedCount;
  }
}
