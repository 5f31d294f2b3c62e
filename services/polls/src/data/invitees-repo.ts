import type { Collection, Db } from 'mongodb';
import type { Collections } from './collections.ts';
import { isDuplicateKey } from './collections.ts';
import type { InviteeDoc, RegisterDoc } from './documents.ts';

const invitees = (c: Collections): Collection<InviteeDoc> => c.invitees;

/**
 * The indexes of `poll_invitees` (called by migrations/index.ts): one invitee per (poll,
 * e-mail), and the lookup of a token's hash. Plain and unique compound indexes (FerretDB).
 */
export async function ensureInviteeIndexes(db: Db): Promise<void> {
  await db.collection('poll_invitees').createIndex({ poll_id: 1, email: 1 }, { unique: true });
  await db.collection('poll_invitees').createIndex({ poll_id: 1, token_hashes: 1 });
  await db.collection('ballot_register').createIndex({ poll_id: 1 });
}

/** Queries of `poll_invitees` and of the published ballot ids (the `votes` of a poll, ids only). */
export class InviteesRepo {
  private readonly c: Collections;

  constructor(c: Collections) {
    this.c = c;
  }

  /** Inserts an invitee; resolves false when the poll has that e-mail already. */
  async add(doc: InviteeDoc): Promise<boolean> {
    try {
      await invitees(this.c).insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Invites again an address whose invitation was withdrawn: `invited`, with only the new token's
   * hash (the withdrawn links stay refused). Resolves the invitee as it was, or null when the
   * address is not withdrawn (invited or voted: skipped).
   */
  revive(pollId: string, email: string, hash: string, at: string): Promise<InviteeDoc | null> {
    return invitees(this.c).findOneAndUpdate(
      { poll_id: pollId, email, state: 'revoked' },
      { $set: { state: 'invited', token_hashes: [hash], invited_at: at } },
      { returnDocument: 'before' },
    );
  }

  /** Undoes {@link revive} (its e-mail could not be queued): withdrawn again, as it was. */
  async unrevive(before: InviteeDoc): Promise<void> {
    await invitees(this.c).updateOne(
      { _id: before._id },
      { $set: { state: 'revoked', token_hashes: before.token_hashes, invited_at: before.invited_at } },
    );
  }

  /** Takes an invitee back (undo of {@link add} when its e-mail could not be queued). */
  async remove(id: string): Promise<void> {
    await invitees(this.c).deleteOne({ _id: id });
  }

  /** A poll's invitees by e-mail, a page at a time, with their total. */
  async page(pollId: string, skip: number, limit: number): Promise<{ items: InviteeDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      invitees(this.c).find({ poll_id: pollId }).sort({ email: 1 }).skip(skip).limit(limit).toArray(),
      invitees(this.c).countDocuments({ poll_id: pollId }),
    ]);
    return { items, total };
  }

  /** How many invitees of a poll are in each state. */
  async counts(pollId: string): Promise<Record<InviteeDoc['state'], number>> {
    const rows = await invitees(this.c)
      .aggregate<{ _id: InviteeDoc['state']; n: number }>([
        { $match: { poll_id: pollId } },
        { $group: { _id: '$state', n: { $sum: 1 } } },
      ])
      .toArray();
    const out = { invited: 0, voted: 0, revoked: 0 };
    for (const r of rows) out[r._id] = r.n;
    return out;
  }

  byId(pollId: string, id: string): Promise<InviteeDoc | null> {
    return invitees(this.c).findOne({ _id: id, poll_id: pollId });
  }

  /** The invitee whose links include this token hash, whatever its state. */
  byTokenHash(pollId: string, hash: string): Promise<InviteeDoc | null> {
    return invitees(this.c).findOne({ poll_id: pollId, token_hashes: hash });
  }

  /**
   * The register's one-ballot rule: marks the invitee holding this token hash as voted in
   * `hour`, only if still `invited` (atomic). Resolves the invitee, or null when no live
   * invitation has the hash.
   */
  markVoted(pollId: string, hash: string, hour: string): Promise<InviteeDoc | null> {
    return invitees(this.c).findOneAndUpdate(
      { poll_id: pollId, token_hashes: hash, state: 'invited' },
      { $set: { state: 'voted', voted_hour: hour } },
      { returnDocument: 'after' },
    );
  }

  /** Undoes {@link markVoted} when the ballot is surely not stored. */
  async unmarkVoted(id: string): Promise<void> {
    await invitees(this.c).updateOne(
      { _id: id, state: 'voted' },
      { $set: { state: 'invited', voted_hour: null } },
    );
  }

  /** Withdraws an invitation that has not been used; resolves the invitee after, or null. */
  revoke(pollId: string, id: string): Promise<InviteeDoc | null> {
    return invitees(this.c).findOneAndUpdate(
      { _id: id, poll_id: pollId, state: 'invited' },
      { $set: { state: 'revoked' } },
      { returnDocument: 'after' },
    );
  }

  /**
   * Invitees who have not voted (nor been removed), for reminders: the least reminded first,
   * then by e-mail, at most `limit`.
   */
  notVoted(pollId: string, limit: number): Promise<InviteeDoc[]> {
    return invitees(this.c)
      .find({ poll_id: pollId, state: 'invited' })
      .sort({ reminders: 1, email: 1 })
      .limit(limit)
      .toArray();
  }

  /** How many invitees who have not voted had fewer than `reminders` reminders. */
  remindedFewer(pollId: string, reminders: number): Promise<number> {
    return invitees(this.c).countDocuments({
      poll_id: pollId,
      state: 'invited',
      reminders: { $lt: reminders },
    });
  }

  /** Adds a reminder's token hash to an invitee still `invited`; false when it voted meanwhile. */
  async addReminder(id: string, hash: string, at: string): Promise<boolean> {
    const r = await invitees(this.c).updateOne(
      { _id: id, state: 'invited' },
      { $push: { token_hashes: hash }, $set: { reminded_at: at }, $inc: { reminders: 1 } },
    );
    return r.modifiedCount === 1;
  }

  /** Takes a reminder's token hash back (its e-mail could not be queued). */
  async removeReminder(id: string, hash: string): Promise<void> {
    await invitees(this.c).updateOne({ _id: id }, { $pull: { token_hashes: hash }, $inc: { reminders: -1 } });
  }

  /** Deletes a poll's invitees and register (the poll is deleted). */
  async deletePoll(pollId: string): Promise<void> {
    await invitees(this.c).deleteMany({ poll_id: pollId });
    await this.c.register.deleteMany({ poll_id: pollId });
  }

  /**
   * The register of a poll of signed-in users: records that `userId` cast their ballot in `hour`;
   * resolves false when they had already (the `_id` is `<poll>:<user>`: one each).
   */
  async register(pollId: string, userId: number, hour: string): Promise<boolean> {
    const doc: RegisterDoc = {
      _id: `${pollId}:${userId}`,
      poll_id: pollId,
      user_id: userId,
      voted_hour: hour,
    };
    try {
      await this.c.register.insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /** Undoes {@link register} when the ballot is surely not stored. */
  async unregister(pollId: string, userId: number): Promise<void> {
    await this.c.register.deleteOne({ _id: `${pollId}:${userId}` });
  }

  /**
   * The register of a poll of signed-in users: the UTC hour `userId` cast their ballot in, or
   * null when they have not (read by `GET .../my-ballot`; never which ballot).
   */
  async registeredHour(pollId: string, userId: number): Promise<string | null> {
    const doc = await this.c.register.findOne({ _id: `${pollId}:${userId}` });
    return doc?.voted_hour ?? null;
  }

  /** How many signed-in users the register of a poll has. */
  registered(pollId: string): Promise<number> {
    return this.c.register.countDocuments({ poll_id: pollId });
  }

  /**
   * The ids of a poll's counted ballots in id order (random ids: no time order), after `after`,
   * at most `limit`: the published list voters check their receipt against.
   */
  async ballotIds(pollId: string, after: string | undefined, limit: number): Promise<string[]> {
    const docs = await this.c.votes
      .find({ poll_id: pollId, ...(after ? { _id: { $gt: after } } : {}) }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Whether the poll has a counted ballot with this id. */
  async hasBallot(pollId: string, ballotId: string): Promise<boolean> {
    return (await this.c.votes.countDocuments({ _id: ballotId, poll_id: pollId }, { limit: 1 })) === 1;
  }
}
