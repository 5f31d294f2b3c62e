import { expect } from 'chai';
import { createKnex, type Knex } from '@fieldhouse/db';
import { defineOutboxTable } from '@fieldhouse/messaging';
import { createTestDatabase, type TestDatabase } from '@fieldhouse/testkit';
import {
  createGeneratedSqlTable,
  createWebhookEmitter,
  createWebhookTables,
  installGeneratedTriggers,
  type WebhookTrigger,
} from '../src/index.ts';

/** A trigger on `rooms` announcing `room.opened` with `data` as its payload SQL (rows `n`). */
const roomsTrigger = (name: string, data: string): WebhookTrigger => ({
  name,
  table: 'rooms',
  on: 'INSERT',
  referencing: 'NEW TABLE AS new_rows',
  emits: [
    {
      kind: 'room.opened',
      from: 'new_rows n',
      reaches: 's.site = n.site',
      scope: `jsonb_build_object('site', n.site)`,
      data,
      orderBy: 'n.id',
    },
  ],
});

describe('libs/webhooks generated triggers (real PostgreSQL)', () => {
  let db: TestDatabase;
  let knex: Knex;

  before(async () => {
    db = await createTestDatabase('triggers');
    knex = createKnex(db.url);
    await knex.schema.createTable('outbox', defineOutboxTable(knex));
    await knex.schema.createTable('rooms', (t) => {
      t.increments('id');
      t.text('site').notNullable();
      t.text('name').notNullable();
    });
    await createWebhookTables(knex, (t) => t.text('site').notNullable());
    await createWebhookEmitter(knex, 'events');
    await createGeneratedSqlTable(knex);
    await knex('webhook_subscriptions').insert({
      id: '00000000-0000-4000-8000-000000000001',
      site: 'north',
      url: 'https://hooks.example.test/a',
      events: ['room.opened'],
      secret: 'whsec_x',
      active: true,
    });
  });

  after(async () => {
    await knex.destroy();
    await db.drop();
  });

  const opened = async () => {
    const { rows } = (await knex.raw(
      `SELECT message->'data' AS data FROM outbox WHERE message->>'type' = 'webhook.room.opened' ORDER BY id`,
    )) as { rows: Array<{ data: unknown }> };
    await knex('outbox').delete();
    return rows.map((r) => r.data);
  };

  it('installs the triggers, which write the payload their SQL builds for the subscribed scopes only', async () => {
    const installed = await installGeneratedTriggers(knex, 'test', [
      roomsTrigger('rooms_webhooks', `jsonb_build_object('name', n.name)`),
    ]);
    expect(installed).to.equal(true);
    await knex('rooms').insert([
      { site: 'north', name: 'Hall' },
      { site: 'south', name: 'Lab' },
      { site: 'north', name: 'Attic' },
    ]);
    expect(await opened()).to.deep.equal([
      { scope: { site: 'north' }, data: { name: 'Hall' } },
      { scope: { site: 'north' }, data: { name: 'Attic' } },
    ]);
  });

  it('does nothing when the generated SQL is what is installed', async () => {
    const again = await installGeneratedTriggers(knex, 'test', [
      roomsTrigger('rooms_webhooks', `jsonb_build_object('name', n.name)`),
    ]);
    expect(again).to.equal(false);
  });

  it('replaces the triggers when the SQL changed, dropping those the previous version made', async () => {
    const changed = await installGeneratedTriggers(knex, 'test', [
      roomsTrigger('rooms_opened_webhooks', `jsonb_build_object('name', upper(n.name))`),
    ]);
    expect(changed).to.equal(true);
    await knex('rooms').insert({ site: 'north', name: 'Cellar' });
    // One message: the previous trigger is gone, not left beside the new one.
    expect(await opened()).to.deep.equal([{ scope: { site: 'north' }, data: { name: 'CELLAR' } }]);
    const { rows } = (await knex.raw(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'rooms'::regclass AND NOT tgisinternal`,
    )) as { rows: Array<{ tgname: string }> };
    expect(rows.map((r) => r.tgname)).to.deep.equal(['rooms_opened_webhooks']);
  });
});
