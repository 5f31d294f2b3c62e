import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { backingUrl } from '@fieldhouse/testkit';
import { GroupCommit } from '@fieldhouse/group-commit';
import { unorderedInsert } from '../src/data/group-insert.ts';

interface Doc {
  _id: string;
  key: string;
  [field: string]: unknown;
}

describe('unorderedInsert (group commit of votes)', () => {
  let client: MongoClient;
  let db: Db;
  let coll: Collection<Doc>;

  before(async () => {
    client = await MongoClient.connect(await backingUrl('mongo'));
    db = client.db(`t_group_${randomBytes(4).toString('hex')}`);
    coll = db.collection<Doc>('docs');
    await coll.createIndex({ key: 1 }, { unique: true });
  });
  after(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  const doc = (key: string): Doc => ({ _id: randomBytes(8).toString('hex'), key });

  it('writes concurrent inserts in batches and answers each on its own, duplicates false', async () => {
    const calls: number[] = [];
    const spied = new Proxy(coll, {
      get(target, prop, receiver) {
        if (prop === 'insertMany')
          return (docs: Doc[], opts: object) => {
            calls.push(docs.length);
            return target.insertMany(docs, opts);
          };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const writer = new GroupCommit(unorderedInsert(spied), { maxBatch: 16, maxInFlight: 1 });
    const keys = Array.from({ length: 40 }, (_, i) => `k${i % 30}`); // k0..k9 twice
    const results = await Promise.all(keys.map((k) => writer.submit(doc(k))));

    expect(results.filter(Boolean)).to.have.length(30);
    for (let i = 0; i < 10; i++) {
      const pair = [results[i], results[i + 30]];
      expect(pair.filter(Boolean), `k${i}`).to.have.length(1);
    }
    expect(await coll.countDocuments({ key: { $regex: '^k' } })).to.equal(30);
    expect(calls.reduce((a, b) => a + b, 0)).to.equal(40);
    expect(calls[0]).to.equal(1); // nothing in flight: written at once
    expect(Math.max(...calls)).to.equal(16); // then the waiting ones together
  });

  it('a lone duplicate resolves false and a later insert still works', async () => {
    const writer = new GroupCommit(unorderedInsert(coll));
    expect(await writer.submit(doc('lone'))).to.equal(true);
    expect(await writer.submit(doc('lone'))).to.equal(false);
    expect(await writer.submit(doc('lone-2'))).to.equal(true);
  });

  it('rejects only the document whose write failed for another reason', async () => {
    const writer = new GroupCommit(unorderedInsert(coll), { maxInFlight: 1 });
    const first = writer.submit(doc('bad-0')); // in flight: the next three wait and go together
    const [before, invalid, after] = await Promise.allSettled([
      writer.submit(doc('bad-1')),
      writer.submit({ _id: [1, 2] as unknown as string, key: 'bad-2' }), // an array _id: refused
      writer.submit(doc('bad-3')),
    ]);
    expect(await first).to.equal(true);
    expect(before).to.deep.equal({ status: 'fulfilled', value: true });
    expect(invalid.status).to.equal('rejected');
    expect((invalid as PromiseRejectedResult).reason)
      .to.have.property('code')
      .that.is.not.equal(11000);
    expect(after).to.deep.equal({ status: 'fulfilled', value: true });
    expect(await coll.countDocuments({ key: { $in: ['bad-0', 'bad-1', 'bad-2', 'bad-3'] } })).to.equal(3);
  });
});
