import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { webhookCollections } from '@fieldhouse/webhooks';
import { backingUrl } from '@fieldhouse/testkit';
import { mongoBackend, postgresBackend, type Backend, type MongoBackend } from './backends.ts';

/**
 * The fan-out of one event is idempotent on both stores: an event fanned out again (a
 * redelivery from RabbitMQ) creates nothing twice and plans only what it created. The MongoDB
 * store inserts the deliveries and skips those its unique index already holds (issue 31:
 * FerretDB took 30 times longer for the same fan-outs as upserts).
 */
for (const [name, make] of [
  ['PostgreSQL', postgresBackend],
  ['MongoDB', mongoBackend],
] as const) {
  describe(`webhooks: fanning out an event again creates nothing twice on ${name}`, () => {
    let backend: Backend;
    before(async () => {
      backend = await make();
    });
    after(async () => backend?.close());

    it('plans each subscription once across redeliveries of the event', async () => {
      const tenant = 7;
      const subs = [];
      for (let i = 0; i < 3; i++)
        subs.push(
          await backend.repo.insert(
            { tenant_id: tenant },
            { url: `https://hooks.example.org/${i}`, events: ['thing.done'] },
            1,
          ),
        );
      const messageId = randomUUID();
      const fanOut = () =>
        backend.store.fanOut(
          messageId,
          'thing.done',
          new Date(),
          { scope: { tenant_id: tenant }, data: { n: 1 } },
          60_000,
        );

      const first = await fanOut();
      expect(first.map((p) => p.subscriptionId).sort()).to.deep.equal(subs.map((s) => s.id).sort());
      expect(await fanOut()).to.deep.equal([]);

      for (const s of subs) {
        const { total } = await backend.repo.listDeliveries(s.id, {}, { page: 1, per_page: 10 });
        expect(total, `deliveries of ${s.id}`).to.equal(1);
      }
    });
  });
}

/**
 * The MongoDB store records a delivery the worker cannot start now (its owner's slots are full:
 * the admission says no) due `deferMs` later and without a lease, in the fan-out's own insert,
 * so a saturated owner's fan-out costs no second write (the fault suite's webhook-flood:
 * giving 1,200 deliveries back one fan-out at a time held FerretDB past its probes' deadline).
 */
describe('webhooks: the MongoDB fan-out records what the worker cannot start as due later', () => {
  let backend: MongoBackend;
  let client: MongoClient;
  before(async () => {
    backend = await mongoBackend();
    client = await MongoClient.connect(await backingUrl('mongo'));
  });
  after(async () => {
    await backend?.close();
    await client?.close();
  });

  it('leases and plans only the admitted deliveries; the others are pending, free, and due after deferMs', async () => {
    const subs = [];
    for (let i = 0; i < 4; i++)
      subs.push(
        await backend.repo.insert(
          { tenant_id: 9 },
          { url: `https://hooks.example.org/${i}`, events: ['thing.done'] },
          i < 2 ? 41 : 42,
        ),
      );
    const asked: Array<[string, string]> = [];
    const before = Date.now();
    const messageId = randomUUID();
    const fanOut = (admitOwner: string) =>
      backend.store.fanOut(
        messageId,
        'thing.done',
        new Date(),
        { scope: { tenant_id: 9 }, data: {} },
        60_000,
        {
          deferMs: 3_000,
          admit: (owner, subscription) => {
            asked.push([owner, subscription]);
            return owner === admitOwner;
          },
        },
      );
    const plans = await fanOut('user:41');
    expect(plans.map((p) => p.subscriptionId).sort()).to.deep.equal([subs[0]!.id, subs[1]!.id].sort());
    expect(plans.every((p) => p.owner === 'user:41')).to.equal(true);
    expect(asked.map(([o, s]) => `${o} ${s}`).sort()).to.deep.equal(
      subs.map((s, i) => `user:${i < 2 ? 41 : 42} ${s.id}`).sort(),
    );
    const deliveries = webhookCollections(client.db(backend.dbName)).deliveries;
    const docs = await deliveries.find({ message_id: messageId }).toArray();
    expect(docs).to.have.length(4);
    for (const d of docs) {
      const admitted = d.subscription_id === subs[0]!.id || d.subscription_id === subs[1]!.id;
      expect(d.status, d.subscription_id).to.equal('pending');
      expect(d.attempts).to.equal(0);
      if (admitted) {
        expect(d.lock_token, 'an admitted delivery is leased to its plan').to.equal(plans[0]!.token);
        expect(d.locked_until!.getTime()).to.be.greaterThan(before + 50_000);
      } else {
        expect(d.lock_token, 'a deferred delivery is free').to.equal(null);
        expect(d.locked_until).to.equal(null);
        expect(d.next_attempt_at!.getTime()).to.be.within(before + 3_000, Date.now() + 3_000);
      }
    }
    // Fanned out again (a redelivery), admitted or not, nothing is planned or recorded twice.
    expect(await fanOut('user:42')).to.deep.equal([]);
    expect(await deliveries.countDocuments({ message_id: messageId })).to.equal(4);
  });
});
