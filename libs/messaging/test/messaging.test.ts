import { expect } from 'chai';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { envelope, type Envelope } from '@fieldhouse/contracts';
import { isStoreUnavailableError } from '@fieldhouse/problem';
import {
  Broker,
  OutboxRelay,
  PermanentError,
  countMessages,
  defineOutboxTable,
  defineProcessedMessagesTable,
  inTransactionWith,
  processOnce,
  replayDeadLetters,
  startConsumer,
  writeOutbox,
} from '@fieldhouse/messaging';
import {
  backingUrl,
  createTestDatabase,
  eventually,
  randomPrefix,
  testLogger,
  type TestDatabase,
} from '@fieldhouse/testkit';

describe('messaging (real RabbitMQ and PostgreSQL)', () => {
  const logger = testLogger('messaging');
  let amqpUrl: string;
  let broker: Broker;
  let db: TestDatabase;
  let knex: Knex;

  before(async () => {
    amqpUrl = await backingUrl('amqp');
    broker = new Broker({ url: amqpUrl, logger, name: 'messaging-test', prefix: randomPrefix('msg') });
    await broker.waitForConnect();
    db = await createTestDatabase('messaging');
    await migrateLatest(db.url, [
      {
        name: '001',
        up: async (k) => {
          await k.schema.createTable('outbox', defineOutboxTable(k));
          await k.schema.createTable('processed_messages', defineProcessedMessagesTable(k));
          await k.schema.createTable('effects', (t) => t.string('message_id'));
        },
        down: async () => undefined,
      },
    ]);
    knex = createKnex(db.url);
  });
  after(async () => {
    await broker?.close();
    await knex?.destroy();
    await db?.drop();
  });

  it('retries a failing handler with backoff, then succeeds', async () => {
    const attempts: number[] = [];
    const consumer = await startConsumer(broker, {
      queue: 'retry-then-ok',
      bindings: [{ exchange: 'events', pattern: 'thing.retry' }],
      retryDelaysMs: [50, 50, 50],
      logger,
      handler: async (_m, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error('transient');
      },
    });
    await broker.publish('events', envelope('events', 'thing.retry', { n: 1 }));
    await eventually(async () => attempts.length === 3);
    expect(attempts).to.deep.equal([1, 2, 3]);
    await consumer.close();
  });

  it('dead-letters after the last attempt and replays dead letters on demand', async () => {
    let fail = true;
    const seen: string[] = [];
    const consumer = await startConsumer(broker, {
      queue: 'always-fails',
      bindings: [{ exchange: 'events', pattern: 'thing.fail' }],
      retryDelaysMs: [20, 20],
      logger,
      handler: async (m) => {
        seen.push(m.id);
        if (fail) throw new Error('still broken');
      },
    });
    const msg = envelope('events', 'thing.fail', { n: 2 });
    await broker.publish('events', msg);
    const dlq = `${broker.name('always-fails')}.dlq`;
    await eventually(async () => (await countMessages(amqpUrl, dlq)) === 1);
    expect(seen).to.deep.equal([msg.id, msg.id, msg.id]);

    fail = false;
    const { replayed } = await replayDeadLetters(amqpUrl, broker.name('always-fails'));
    expect(replayed).to.equal(1);
    await eventually(async () => seen.length === 4);
    expect(await countMessages(amqpUrl, dlq)).to.equal(0);
    await consumer.close();
  });

  it('gives back a message whose handler hangs (a hung store), without spending its attempts, and handles it once the store answers', async () => {
    // The "store": hangs every call until released, like FerretDB's wedge in issue 31.
    let storeHung = true;
    const calls: Array<{ attempt: number; hungStore: boolean }> = [];
    const done: string[] = [];
    const consumer = await startConsumer(broker, {
      queue: 'hung-store',
      bindings: [{ exchange: 'events', pattern: 'thing.hung' }],
      retryDelaysMs: [20, 100],
      handlerTimeoutMs: 150,
      prefetch: 1,
      logger,
      handler: async (m, ctx) => {
        calls.push({ attempt: ctx.attempt, hungStore: storeHung });
        if (storeHung) await new Promise(() => undefined); // never settles
        done.push(m.id);
      },
    });
    const msg = envelope('events', 'thing.hung', { n: 3 });
    await broker.publish('events', msg);
    // More timeouts than there are attempts: none dead-letters it, and the channel keeps consuming.
    await eventually(async () => calls.length >= 5, 10_000);
    expect(calls.every((c) => c.attempt === 1)).to.equal(true);
    expect(await countMessages(amqpUrl, `${broker.name('hung-store')}.dlq`)).to.equal(0);
    storeHung = false;
    await eventually(async () => done.length === 1, 10_000);
    expect(done).to.deep.equal([msg.id]);
    expect(calls.at(-1)).to.deep.equal({ attempt: 1, hungStore: false });
    await consumer.close();
  });

  it('parks a message whose handler fails because a store does not answer, without spending its attempts', async () => {
    /** What the MongoDB driver throws when a connection brings no answer in socketTimeoutMS. */
    class MongoNetworkTimeoutError extends Error {}
    let storeAway = true;
    const calls: number[] = [];
    const done: string[] = [];
    const consumer = await startConsumer(broker, {
      queue: 'store-away',
      bindings: [{ exchange: 'events', pattern: 'thing.away' }],
      retryDelaysMs: [20, 100],
      logger,
      handler: async (m, ctx) => {
        calls.push(ctx.attempt);
        if (storeAway) throw new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27017 timed out');
        done.push(m.id);
      },
    });
    const msg = envelope('events', 'thing.away', { n: 4 });
    await broker.publish('events', msg);
    await eventually(async () => calls.length >= 5, 10_000);
    expect(calls.every((a) => a === 1)).to.equal(true);
    expect(await countMessages(amqpUrl, `${broker.name('store-away')}.dlq`)).to.equal(0);
    storeAway = false;
    await eventually(async () => done.length === 1, 10_000);
    await consumer.close();
  });

  it('recognises a store that is away in the errors drivers throw, and nothing else', () => {
    class KnexTimeoutError extends Error {}
    expect(isStoreUnavailableError(new KnexTimeoutError('Timeout acquiring a connection'))).to.equal(true);
    expect(isStoreUnavailableError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).to.equal(
      true,
    );
    expect(isStoreUnavailableError(new Error('Connection terminated unexpectedly'))).to.equal(true);
    class MongoBulkWriteError extends Error {
      errorResponse: unknown;
      constructor(cause: unknown) {
        super('bulk');
        this.errorResponse = cause;
      }
    }
    class MongoNetworkTimeoutError extends Error {}
    expect(
      isStoreUnavailableError(new MongoBulkWriteError(new MongoNetworkTimeoutError('timed out'))),
    ).to.equal(true);
    expect(isStoreUnavailableError(new Error('duplicate key'))).to.equal(false);
    expect(isStoreUnavailableError(new PermanentError('bad message'))).to.equal(false);
    expect(isStoreUnavailableError(undefined)).to.equal(false);
  });

  it('sends permanent failures and invalid envelopes straight to the dead-letter queue', async () => {
    let calls = 0;
    const consumer = await startConsumer(broker, {
      queue: 'permanent',
      bindings: [{ exchange: 'events', pattern: 'thing.permanent' }],
      retryDelaysMs: [20, 20],
      logger,
      handler: async () => {
        calls++;
        throw new PermanentError('cannot ever work');
      },
    });
    await broker.publish('events', envelope('events', 'thing.permanent', {}));
    await broker.sendToQueue(broker.name('permanent'), Buffer.from('not json'), {});
    await eventually(async () => (await countMessages(amqpUrl, `${broker.name('permanent')}.dlq`)) === 2);
    expect(calls).to.equal(1);
    await consumer.close();
  });

  it('relays outbox rows in order only after commit, deleting them once confirmed', async () => {
    const got: Envelope[] = [];
    const consumer = await startConsumer(broker, {
      queue: 'outbox-target',
      bindings: [{ exchange: 'collection', pattern: 'outbox.#' }],
      logger,
      handler: async (m) => {
        got.push(m);
      },
    });
    const relay = new OutboxRelay({ knex, table: 'outbox', broker, logger, intervalMs: 50 });
    await knex
      .transaction(async (trx) => {
        await writeOutbox(trx, 'outbox', 'collection', envelope('collection', 'outbox.rolled-back', {}));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    const sent = [1, 2, 3].map((n) => envelope('collection', 'outbox.item', { n }));
    await knex.transaction(async (trx) => {
      for (const m of sent) await writeOutbox(trx, 'outbox', 'collection', m);
    });
    relay.start();
    await eventually(async () => got.length === 3);
    await relay.stop();
    expect(got.map((m) => m.id)).to.deep.equal(sent.map((m) => m.id));
    expect(got.some((m) => m.type === 'outbox.rolled-back')).to.equal(false);
    const left = await knex('outbox').count<{ count: number }[]>({ count: '*' });
    expect(Number(left[0]!.count)).to.equal(0);
    await consumer.close();
  });

  it('inTransactionWith writes a use case and its outbox messages together, and kicks the relay only after a commit that wrote', async () => {
    let kicks = 0;
    const inTransaction = inTransactionWith(knex, 'outbox', () => void kicks++);
    await knex('outbox').delete();
    await inTransaction(async (trx, outbox) => {
      await trx('effects').insert({ message_id: 'rolled-back' });
      await outbox.add('collection', envelope('collection', 'unit.rolled-back', {}));
      throw new Error('rollback');
    }).catch(() => undefined);
    expect(await knex('effects').where('message_id', 'rolled-back')).to.have.length(0);
    expect(await knex('outbox')).to.have.length(0);
    expect(kicks).to.equal(0);
    const answer = await inTransaction(async (trx, outbox) => {
      await trx('effects').insert({ message_id: 'committed' });
      await outbox.add('collection', envelope('collection', 'unit.committed', {}));
      return 'done';
    });
    expect(answer).to.equal('done');
    expect(await knex('effects').where('message_id', 'committed')).to.have.length(1);
    const rows = await knex('outbox').select('message');
    expect(rows.map((r: { message: Envelope }) => r.message.type)).to.deep.equal(['unit.committed']);
    expect(kicks).to.equal(1);
    await inTransaction(async (trx) => trx('effects').insert({ message_id: 'no-message' }));
    expect(kicks).to.equal(1);
    await knex('outbox').delete();
    await knex('effects').whereIn('message_id', ['committed', 'no-message']).delete();
  });

  it('processes a message id once per consumer, even when redelivered', async () => {
    const effect = (id: string) =>
      processOnce(knex, 'processed_messages', 'test-consumer', id, async (trx) => {
        await trx('effects').insert({ message_id: id });
      });
    expect(await effect('m-1')).to.equal(true);
    expect(await effect('m-1')).to.equal(false);
    const failing = processOnce(knex, 'processed_messages', 'test-consumer', 'm-2', async () => {
      throw new Error('boom');
    });
    await failing.then(
      () => expect.fail('should reject'),
      (err: Error) => expect(err.message).to.equal('boom'),
    );
    expect(await effect('m-2')).to.equal(true);
    const rows = await knex('effects').orderBy('message_id');
    expect(rows.map((r: { message_id: string }) => r.message_id)).to.deep.equal(['m-1', 'm-2']);
  });
});
