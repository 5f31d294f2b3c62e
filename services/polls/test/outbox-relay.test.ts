import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { Exchanges, envelope, type Envelope } from '@fieldhouse/contracts';
import { Broker, startConsumer } from '@fieldhouse/messaging';
import { backingUrl, eventually, randomPrefix, testLogger } from '@fieldhouse/testkit';
import { collections, type Collections } from '../src/data/collections.ts';
import { MongoOutboxStore } from '../src/data/outbox.ts';
import { ensureIndexes } from '../src/index.ts';

/** `n` outbox messages on the polls exchange, a millisecond apart, in the order they were written. */
async function writeMessages(c: Collections, n: number, label: string): Promise<Envelope[]> {
  const base = Date.now() - n;
  const messages = Array.from({ length: n }, (_, i) => envelope(Exchanges.polls, 'relay.item', { label, i }));
  await c.outbox.insertMany(
    messages.map((message, i) => ({
      _id: message.id,
      exchange: Exchanges.polls,
      message,
      created_at: new Date(base + i),
      claimed_until: new Date(0),
      attempts: 0,
    })),
  );
  return messages;
}

describe('polls outbox relay (MongoDB outbox, real RabbitMQ): batches in order, at least once', () => {
  const logger = testLogger('polls-outbox');
  let mongo: MongoClient;
  let db: Db;
  let c: Collections;
  let broker: Broker;
  const got: Envelope[] = [];
  let consumer: { close: () => Promise<void> };

  before(async () => {
    mongo = await MongoClient.connect(await backingUrl('mongo'));
    db = mongo.db(`t_polls_relay_${randomBytes(4).toString('hex')}`);
    await ensureIndexes(db);
    c = collections(db);
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'polls-outbox-test',
      prefix: randomPrefix('relay'),
    });
    await broker.waitForConnect();
    consumer = await startConsumer(broker, {
      queue: 'relay-target',
      bindings: [{ exchange: Exchanges.polls, pattern: 'relay.#' }],
      prefetch: 500,
      logger,
      handler: async (m) => {
        got.push(m);
      },
    });
  });
  beforeEach(async () => {
    got.length = 0;
    await c.outbox.deleteMany({});
  });
  after(async () => {
    await consumer?.close();
    await broker?.close();
    await db?.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('publishes a batch at a time, oldest first, and deletes what RabbitMQ confirmed', async () => {
    const sent = await writeMessages(c, 250, 'order');
    const store = new MongoOutboxStore(c, 30_000, 100);
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 100, more: true });
    expect(await c.outbox.countDocuments({})).to.equal(150);
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 100, more: true });
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 50, more: false });
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 0, more: false });
    expect(await c.outbox.countDocuments({})).to.equal(0);
    await eventually(async () => got.length >= 250);
    // One confirm channel keeps the publishing order; one consumer sees it.
    expect(got.map((m) => m.id)).to.deep.equal(sent.map((m) => m.id));
  });

  it('leaves messages another relay holds until their claim lapses', async () => {
    const [first, second] = await writeMessages(c, 2, 'held');
    await c.outbox.updateOne({ _id: first!.id }, { $set: { claimed_until: new Date(Date.now() + 60_000) } });
    const store = new MongoOutboxStore(c);
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 1, more: false });
    await eventually(async () => got.length >= 1);
    expect(got.map((m) => m.id)).to.deep.equal([second!.id]);
    expect((await c.outbox.findOne({ _id: first!.id }))?.attempts).to.equal(0);
    // The claim lapses (its relay died): the next batch takes it.
    await c.outbox.updateOne({ _id: first!.id }, { $set: { claimed_until: new Date(Date.now() - 1) } });
    expect(await store.relayBatch(broker)).to.deep.equal({ published: 1, more: false });
    await eventually(async () => got.length >= 2);
  });

  it('two relays at once publish every message at least once and leave none', async () => {
    const sent = await writeMessages(c, 300, 'race');
    const drain = async (store: MongoOutboxStore) => {
      for (;;) if (!(await store.relayBatch(broker)).more) return;
    };
    await Promise.all([
      drain(new MongoOutboxStore(c, 30_000, 40)),
      drain(new MongoOutboxStore(c, 30_000, 40)),
    ]);
    expect(await c.outbox.countDocuments({})).to.equal(0);
    await eventually(async () => new Set(got.map((m) => m.id)).size >= 300);
    expect([...new Set(got.map((m) => m.id))].sort()).to.deep.equal(sent.map((m) => m.id).sort());
  });

  it('keeps a message whose publish failed, with its error, and tries it again 2 s later', async () => {
    const [message] = await writeMessages(c, 1, 'unconfirmed');
    // A broker that never connects: its publish waits the publish timeout, then rejects.
    const away = new Broker({
      url: 'amqp://guest:guest@127.0.0.1:1',
      logger,
      name: 'polls-outbox-away',
      publishTimeoutMs: 300,
    });
    try {
      const store = new MongoOutboxStore(c);
      const before = Date.now();
      const err = await store.relayBatch(away).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err).to.be.instanceOf(Error);
      const kept = await c.outbox.findOne({ _id: message!.id });
      expect(kept?.attempts).to.equal(1);
      expect(kept?.last_error).to.be.a('string').and.not.equal('');
      expect(kept!.claimed_until.getTime()).to.be.within(before + 1_000, Date.now() + 2_500);
      // Not before then, and by the working broker once it is due.
      expect(await store.relayBatch(broker)).to.deep.equal({ published: 0, more: false });
      await c.outbox.updateOne({ _id: message!.id }, { $set: { claimed_until: new Date(Date.now() - 1) } });
      expect(await store.relayBatch(broker)).to.deep.equal({ published: 1, more: false });
      expect(await c.outbox.countDocuments({})).to.equal(0);
      await eventually(async () => got.some((m) => m.id === message!.id));
    } finally {
      await away.close();
    }
  });
});
