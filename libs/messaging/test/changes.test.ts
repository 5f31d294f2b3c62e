import { expect } from 'chai';
import { createKnex, type Knex } from '@fieldhouse/db';
import type { Envelope } from '@fieldhouse/contracts';
import { createTestDatabase, type TestDatabase } from '@fieldhouse/testkit';
import { defineChanges, message, t, webhook, type Infer } from '../src/index.ts';

/** A list the way a service declares one: a message and two webhook kinds, one built by SQL from rows `r`. */
const visit = t.object({
  id: t.integer({ sql: 'r.id' }),
  room: t.string({ sql: 'r.room', description: 'Where.' }),
  guest: t.nullable(t.object({ name: t.string({ sql: 'r.guest' }) }), {
    nullWhen: 'r.guest IS NULL',
    description: 'Who; null when nobody.',
  }),
  at: t.time({ sql: 'r.at' }),
  left_at: t.nullable(t.time({ sql: 'r.left_at' })),
  kind: t.oneOf(['walk-in', 'booked'], { sql: 'r.kind' }),
  links: t.object({
    self: t.string({ sql: `'/visits/' || r.id` }),
    bill: t.optional(t.string({ sql: `'/visits/' || r.id || '/bill'` }), 'r.billed'),
  }),
});

const changes = defineChanges({
  source: 'events',
  webhookScope: t.object({ room: t.string() }),
  changes: {
    'note.requested': message({
      summary: 'A note to write.',
      description: 'Consumed by a worker.',
      data: t.object({ text: t.string() }),
    }),
    'visit.started': webhook({ summary: 'A visit started.', description: 'When it starts.', data: visit }),
    'visit.ended': webhook({
      summary: 'A visit ended.',
      description: 'When it ends.',
      data: t.object({ id: t.uuid(), final: t.literal(true) }),
    }),
  },
});

describe('libs/messaging defineChanges: one declaration gives the type, the JSON Schema and the SQL', () => {
  let db: TestDatabase;
  let knex: Knex;

  before(async () => {
    db = await createTestDatabase('changes');
    knex = createKnex(db.url);
  });

  after(async () => {
    await knex.destroy();
    await db.drop();
  });

  it('derives the JSON Schema: every key required but the optional ones, nullable types with null', () => {
    expect(changes.schema('visit.started')).to.deep.equal({
      type: 'object',
      required: ['id', 'room', 'guest', 'at', 'left_at', 'kind', 'links'],
      properties: {
        id: { type: 'integer' },
        room: { type: 'string', description: 'Where.' },
        guest: {
          type: ['object', 'null'],
          required: ['name'],
          properties: { name: { type: 'string' } },
          description: 'Who; null when nobody.',
        },
        at: { type: 'string', format: 'date-time' },
        left_at: { type: ['string', 'null'], format: 'date-time' },
        kind: { type: 'string', enum: ['walk-in', 'booked'] },
        links: {
          type: 'object',
          required: ['self'],
          properties: { self: { type: 'string' }, bill: { type: 'string' } },
        },
      },
    });
    expect(changes.schema('visit.ended')).to.deep.equal({
      type: 'object',
      required: ['id', 'final'],
      properties: { id: { type: 'string', format: 'uuid' }, final: { type: 'boolean', const: true } },
    });
  });

  it('lists the webhook kinds in order, and documents webhooks and messages apart', () => {
    expect(changes.webhookKinds).to.deep.equal(['visit.started', 'visit.ended']);
    expect(Object.keys(changes.webhookDocs())).to.deep.equal(['visit.started', 'visit.ended']);
    expect(changes.webhookDocs()['visit.ended']).to.deep.include({
      summary: 'A visit ended.',
      description: 'When it ends.',
    });
    expect(Object.keys(changes.messageDocs())).to.deep.equal(['note.requested']);
  });

  it('builds in SQL the payload the schema describes: times as toISOString writes them, null and optional parts', async () => {
    const sql = changes.sql('visit.started');
    const { rows } = (await knex.raw(
      `SELECT (${sql})::text AS payload FROM (VALUES
         (1, 'Hall', 'Ada', '2026-11-28T10:00:00.123456+01'::timestamptz, NULL::timestamptz, 'booked', true),
         (2, 'Lab', NULL, '2026-11-28T23:59:59.9999Z'::timestamptz, '2026-11-29T00:00:00Z'::timestamptz, 'walk-in', false)
       ) AS r(id, room, guest, at, left_at, kind, billed) ORDER BY r.id`,
    )) as { rows: Array<{ payload: string }> };
    const payloads = rows.map((r) => JSON.parse(r.payload) as Infer<typeof visit>);
    expect(payloads[0]).to.deep.equal({
      id: 1,
      room: 'Hall',
      guest: { name: 'Ada' },
      at: new Date('2026-11-28T10:00:00.123+01:00').toISOString(),
      left_at: null,
      kind: 'booked',
      links: { self: '/visits/1', bill: '/visits/1/bill' },
    });
    expect(payloads[1]).to.deep.equal({
      id: 2,
      room: 'Lab',
      guest: null,
      at: '2026-11-28T23:59:59.999Z',
      left_at: '2026-11-29T00:00:00.000Z',
      kind: 'walk-in',
      links: { self: '/visits/2' },
    });
  });

  it('refuses to give SQL for a payload a part of which has none', () => {
    expect(() => changes.sql('visit.ended')).to.throw(/no SQL/);
  });

  it('appends a message as its envelope, and a webhook as webhook.<kind> with its scope, to the outbox given', async () => {
    const written: Array<{ exchange: string; message: Envelope }> = [];
    const outbox = {
      add: async (exchange: string, m: Envelope) => void written.push({ exchange, message: m }),
    };
    await changes.append(outbox, 'note.requested', { text: 'hello' });
    await changes.appendWebhook(
      outbox,
      'visit.ended',
      { id: '00000000-0000-4000-8000-000000000001', final: true },
      { scope: { room: 'Hall' }, id: 'message-1' },
    );
    expect(written.map((w) => w.exchange)).to.deep.equal(['events', 'events']);
    expect(written[0]!.message).to.deep.include({
      type: 'note.requested',
      source: 'events',
      data: { text: 'hello' },
    });
    expect(written[1]!.message).to.deep.include({
      id: 'message-1',
      type: 'webhook.visit.ended',
      source: 'events',
      data: { scope: { room: 'Hall' }, data: { id: '00000000-0000-4000-8000-000000000001', final: true } },
    });
    expect(new Date(written[1]!.message.time).toISOString()).to.equal(written[1]!.message.time);
  });

  it('makes a wrong payload, kind or scope a compile error', () => {
    const outbox = { add: async () => undefined };
    // Each line below fails to type-check without its directive (tsc checks the directives are needed).
    // @ts-expect-error a field of another type
    void changes.append(outbox, 'note.requested', { text: 1 });
    // @ts-expect-error a kind not in the list
    void changes.append(outbox, 'note.forgotten', { text: 'x' });
    // @ts-expect-error a webhook kind appended as a message
    void changes.append(outbox, 'visit.ended', { id: 'x', final: true });
    // @ts-expect-error a webhook without its scope
    void changes.appendWebhook(outbox, 'visit.ended', { id: 'x', final: true }, {});
    // @ts-expect-error a literal of the other value
    void changes.webhookEnvelope('visit.ended', { id: 'x', final: false }, { scope: { room: 'Hall' } });
  });
});
