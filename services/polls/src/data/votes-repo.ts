import type { Collections } from './collections.ts';
import { GroupCommit } from '@fieldhouse/group-commit';
import { unorderedInsert } from './group-insert.ts';
import type { VoteDoc } from '../domain/types.ts';

/** Counted votes: one document each (docs/polls.md, "Votes"). */
export class VotesRepo {
  private readonly c: Collections;
  private readonly writer: GroupCommit<VoteDoc, boolean>;

  constructor(c: Collections) {
    this.c = c;
    // One insertMany at a time: SQLite (under FerretDB) has one writer anyway, and the votes
    // that wait meanwhile make the next batch larger (1,840 to 1,990 votes/s here).
    this.writer = new GroupCommit(unorderedInsert(c.votes), { maxInFlight: 1 });
  }

  /**
   * Inserts a vote, group-committed with the votes arriving meanwhile ({@link unorderedInsert});
   * resolves false when (poll, voter, seq) is taken (a concurrent vote won).
   */
  insert(vote: VoteDoc): Promise<boolean> {
    return this.writer.submit(vote);
  }

  /** How many counted votes a voter has on a poll. */
  countByVoter(pollId: string, voterKey: string): Promise<number> {
    return this.c.votes.countDocuments({ poll_id: pollId, voter_key: voterKey });
  }

  /** A counted vote by id, or null. */
  byId(id: string): Promise<VoteDoc | null> {
    return this.c.votes.findOne({ _id: id });
  }

  /**
   * Counted votes by id (the reconciler looks up votes whose counting was interrupted). One
   * lookup by `_id` each, 16 at a time: FerretDB answers `{_id: {$in: [...]}}` by scanning the
   * whole collection (docs/benchmarks.md, "The embedded store"), which on a large poll would
   * outlast the socket time limit.
   */
  async byIds(ids: string[]): Promise<VoteDoc[]> {
    const found: VoteDoc[] = [];
    for (let i = 0; i < ids.length; i += 16) {
      const batch = await Promise.all(ids.slice(i, i + 16).map((id) => this.c.votes.findOne({ _id: id })));
      for (const v of batch) if (v) found.push(v);
    }
    return found;
  }

  /** The voter's latest counted vote on a poll, or null. */
  latestByVoter(pollId: string, voterKey: string): Promise<VoteDoc | null> {
    return this.c.votes.find({ poll_id: pollId, voter_key: voterKey }).sort({ seq: -1 }).limit(1).next();
  }

  /** A voter's counted votes on a poll, oldest first (docs/polls.md, "My ballot"). */
  allByVoter(pollId: string, voterKey: string): Promise<VoteDoc[]> {
    return this.c.votes.find({ poll_id: pollId, voter_key: voterKey }).sort({ seq: 1 }).toArray();
  }

  /**
   * One page of a poll's counted votes, newest first (`created_at`, then id: the index
   * `(poll_id, created_at, _id)` walked backwards; docs/polls.md, "Participants").
   */
  pageOfPoll(pollId: string, skip: number, limit: number): Promise<VoteDoc[]> {
    return this.c.votes
      .find({ poll_id: pollId })
      .sort({ created_at: -1, _id: -1 })
      .skip(skip)
      .limit(limit)
      .toArray();
  }

  /**
   * A poll's counted votes with `created_at` at or after `since` (ISO time; every vote when
   * null), in no order, read as a cursor. Unsorted on purpose: FerretDB sorts in memory (a sorted
   * read of 20,000 votes took 2.7 s against 0.19 s unsorted: docs/polls.md, "Participants"), so
   * the caller keeps the newest it needs as they stream by; the `(poll_id, created_at, _id)`
   * index bounds the read.
   */
  sinceOfPoll(pollId: string, since: string | null): AsyncIterable<VoteDoc> {
    return this.c.votes
      .find(since === null ? { poll_id: pollId } : { poll_id: pollId, created_at: { $gte: since } })
      .batchSize(1000);
  }

  /**
   * Every counted vote of a poll, oldest first (then by id; the `(poll_id, created_at, _id)`
   * index), read as a cursor (exports: memory stays flat).
   */
  everyOfPoll(pollId: string): AsyncIterable<VoteDoc> {
    return this.c.votes.find({ poll_id: pollId }).sort({ created_at: 1, _id: 1 }).batchSize(1000);
  }

  /** Whether any counted vote chose one of `optionIds`. */
  async anyChose(pollId: string, optionIds: string[]): Promise<string[]> {
    if (!optionIds.length) return [];
    const hits = await this.c.votes.distinct('option_ids', {
      poll_id: pollId,
      option_ids: { $in: optionIds },
    });
    return optionIds.filter((id) => hits.includes(id));
  }

  /** Time of the n-th counted vote (1-based) of a poll, or null. */
  async timeOfNth(pollId: string, n: number): Promise<string | null> {
    const doc = await this.c.votes
      .find({ poll_id: pollId }, { projection: { created_at: 1 } })
      .sort({ created_at: 1, _id: 1 })
      .skip(n - 1)
      .limit(1)
      .next();
    return doc?.created_at ?? null;
  }
}
