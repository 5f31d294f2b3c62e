import type { Collections } from './collections.ts';
import type { Redis } from './redis.ts';
import type { PollDoc } from '../domain/types.ts';

/**
 * Polls in MongoDB with a read-through cache in Redis (`<prefix>p:<id>`, 5 minutes), so votes
 * and results reads cost no MongoDB read; every change deletes the cached copy.
 */
export class PollsRepo {
  private readonly c: Collections;
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(c: Collections, redis: Redis, prefix: string) {
    this.c = c;
    this.redis = redis;
    this.prefix = prefix;
  }

  /** Redis key of a poll's cached document (JSON; results reads fetch it with their counters). */
  cacheKey(id: string): string {
    return `${this.prefix}p:${id}`;
  }

  /** The poll, or null: from its Redis copy, else {@link load}. */
  async get(id: string): Promise<PollDoc | null> {
    const cached = await this.redis.get(this.cacheKey(id));
    if (cached) return JSON.parse(cached) as PollDoc;
    return this.load(id);
  }

  /** The poll from MongoDB, or null; refreshes its Redis copy (5 minutes). */
  async load(id: string): Promise<PollDoc | null> {
    const poll = await this.c.polls.findOne({ _id: id });
    if (poll) await this.redis.set(this.cacheKey(id), JSON.stringify(poll), { EX: 300 });
    return poll;
  }

  async insert(poll: PollDoc): Promise<void> {
    await this.c.polls.insertOne(poll);
  }

  /**
   * Stores the poll's fields and drops the cached copy. Its `achievements`, `webhook_kinds` and
   * `end_announced` are not written (only {@link recordAchievement}, {@link setWebhookKinds} and
   * {@link markEndAnnounced} do), so a copy read before one of those changed (the cached copy
   * lives 5 minutes) cannot undo it.
   */
  async save(poll: PollDoc): Promise<void> {
    const {
      _id,
      achievements: _achievements,
      webhook_kinds: _kinds,
      end_announced: _announced,
      ...fields
    } = poll;
    await this.c.polls.updateOne({ _id }, { $set: fields });
    await this.redis.del(this.cacheKey(_id));
  }

  /** Records the webhook kinds the poll's active subscriptions take and drops the cached copy. */
  async setWebhookKinds(id: string, kinds: string[]): Promise<void> {
    await this.c.polls.updateOne({ _id: id }, { $set: { webhook_kinds: kinds } });
    await this.redis.del(this.cacheKey(id));
  }

  /** Records a milestone once (the first time wins). */
  async recordAchievement(id: string, name: string, at: string): Promise<void> {
    await this.c.polls.updateOne(
      { _id: id, [`achievements.${name}`]: { $exists: false } },
      { $set: { [`achievements.${name}`]: at } },
    );
    await this.redis.del(this.cacheKey(id));
  }

  /**
   * Open polls (not closed by their owner) whose `ends_at` passed, that a subscription takes
   * `poll.closed` from, and whose passing was not announced yet; at most `limit`.
   */
  async endedUnannounced(now: string, limit: number): Promise<PollDoc[]> {
    const candidates = await this.c.polls
      .find({ closed: false, webhook_kinds: 'poll.closed', 'settings.ends_at': { $ne: null, $lte: now } })
      .limit(limit)
      .toArray();
    return candidates.filter((p) => p.end_announced !== p.settings.ends_at);
  }

  /** Records that the passing of `endsAt` was announced (unless `ends_at` changed meanwhile). */
  async markEndAnnounced(id: string, endsAt: string): Promise<void> {
    await this.c.polls.updateOne(
      { _id: id, 'settings.ends_at': endsAt },
      { $set: { end_announced: endsAt } },
    );
    await this.redis.del(this.cacheKey(id));
  }

  /** Polls owned by a user, newest first. */
  async listByOwner(
    ownerId: number,
    skip: number,
    limit: number,
  ): Promise<{ items: PollDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      this.c.polls
        .find({ owner_id: ownerId })
        .sort({ created_at: -1, _id: 1 })
        .skip(skip)
        .limit(limit)
        .toArray(),
      this.c.polls.countDocuments({ owner_id: ownerId }),
    ]);
    return { items, total };
  }

  /** Deletes a poll and everything attached to it. */
  async delete(id: string): Promise<void> {
    await this.c.polls.deleteOne({ _id: id });
    await Promise.all([
      this.c.votes.deleteMany({ poll_id: id }),
      this.c.pending.deleteMany({ poll_id: id }),
      this.c.reactions.deleteMany({ poll_id: id }),
      this.c.comments.deleteMany({ poll_id: id }),
    ]);
    await this.redis.del([this.cacheKey(id), `${this.prefix}rc:${id}`]);
  }
}
