import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { EMAIL_REQUESTED, Exchanges, envelope } from '@fieldhouse/contracts';
import { backingUrl } from '@fieldhouse/testkit';
import { collections, type Collections } from '../src/data/collections.ts';
import type { PendingVoteDoc } from '../src/data/documents.ts';
import { mongoInTransaction } from '../src/data/outbox.ts';
import { PendingRepo } from '../src/data/pending-repo.ts';
import { ensureIndexes } from '../src/index.ts';

/** A pending vote of `voter` on poll `p1` (only what the unit of work needs). */
const pendingVote = (voter: string): PendingVoteDoc => ({
  _id: `p1:${voter}`,
  code: `code-${voter}`,
  poll_id: 'p1',
  voter_key: voter,
  user_id: null,
  email: `${voter}@example.test`,
  choices: { s: 'o' },
  voter_name: null,
  time_spent: null,
  password_hash: 'x',
  attempts: 0,
  state: 'pending',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  created_at: new Date().toISOString(),
});

/** The error a promise rejects with, or null when it resolves. */
const rejectionOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err as Error,
  );

const mail = (to: string) =>
  envelope(Exchanges.polls, EMAIL_REQUESTED, {
    to: [to],
    subject: 's',
    text: 't',
    reason: 'vote-verification',
  });

describe('polls inTransaction: a use case with its outbox messages on MongoDB without transactions', () => {
  let mongo: MongoClient;
  let db: Db;
  let c: Collections;
  let pending: PendingRepo;
  before(async () => {
    mongo = await MongoClient.connect(await backingUrl('mongo'));
    db = mongo.db(`t_polls_tx_${randomBytes(4).toString('hex')}`);
    await ensureIndexes(db);
    c = collections(db);
    pending = new PendingRepo(c);
  });
  after(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('writes the documents, then the message, and kicks the relay once', async () => {
    let kicks = 0;
    const inTransaction = mongoInTransaction(c, () => kicks++);
    const message = mail('alice@example.test');
    const out = await inTransaction(async ({ outbox, onRollback }) => {
      await pending.put(pendingVote('alice'), new Date().toISOString());
      onRollback(() => pending.remove('p1:alice'));
      await outbox.add(Exchanges.polls, message);
      return 'done';
    });
    expect(out).to.equal('done');
    expect(await c.pending.countDocuments({ _id: 'p1:alice' })).to.equal(1);
    expect((await c.outbox.findOne({ _id: message.id }))?.exchange).to.equal(Exchanges.polls);
    expect(kicks).to.equal(1);
  });

  it('queues nothing and takes the documents back when the work throws after writing them', async () => {
    let kicks = 0;
    const inTransaction = mongoInTransaction(c, () => kicks++);
    const message = mail('bob@example.test');
    const failing = inTransaction(async ({ outbox, onRollback }) => {
      await pending.put(pendingVote('bob'), new Date().toISOString());
      onRollback(() => pending.remove('p1:bob'));
      await outbox.add(Exchanges.polls, message);
      throw new Error('refused after the write');
    });
    expect((await rejectionOf(failing))?.message).to.equal('refused after the write');
    expect(await c.pending.countDocuments({ _id: 'p1:bob' })).to.equal(0);
    expect(await c.outbox.countDocuments({ _id: message.id })).to.equal(0);
    expect(kicks).to.equal(0);
  });

  it('takes the documents back when the message cannot be written, leaving messages it did not write', async () => {
    let kicks = 0;
    const inTransaction = mongoInTransaction(c, () => kicks++);
    const message = mail('carol@example.test');
    // Another writer already queued a message with this id: the insert of ours is refused.
    await c.outbox.insertOne({
      _id: message.id,
      exchange: 'elsewhere',
      message,
      created_at: new Date(),
      claimed_until: new Date(0),
      attempts: 0,
    });
    const failing = inTransaction(async ({ outbox, onRollback }) => {
      await pending.put(pendingVote('carol'), new Date().toISOString());
      onRollback(() => pending.remove('p1:carol'));
      await outbox.add(Exchanges.polls, message);
    });
    expect((await rejectionOf(failing)) as { code?: number } | null).to.include({ code: 11000 });
    expect(await c.pending.countDocuments({ _id: 'p1:carol' })).to.equal(0);
    expect((await c.outbox.findOne({ _id: message.id }))?.exchange).to.equal('elsewhere');
    expect(kicks).to.equal(0);
  });
});
