import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { problemBody } from '@fieldhouse/problem';
import { createTestDatabase, createTestIssuer, testLogger, type TestDatabase } from '@fieldhouse/testkit';
import { createEventsApp } from '../src/app.ts';
import { migrations } from '../src/migrations/index.ts';
import { alice } from './harness.ts';

/**
 * Nonces stored before migration 008 kept an HTTP status and body; they now keep the outcome.
 * A scan sent again with such a nonce must get exactly the answer the first one got.
 */
describe('events service: check-in nonces stored before migration 008', () => {
  let database: TestDatabase;
  let db: Knex;
  let app: Express;
  let auth: { authorization: string };
  const eventId = randomUUID();
  const invite = { id: randomUUID(), nom: 'Ada Lovelace', type_invite: 'vip' };
  const at = '2030-06-01T18:31:07.123Z';
  /** What the service answered and stored before migration 008, by nonce. */
  const stored: Record<string, { status: number; body: Record<string, unknown> }> = {
    'n-checked-in': {
      status: 200,
      body: {
        result: 'checked_in',
        invite,
        checked_in_at: at,
        scanne_par: 'Gate 1',
        message: 'Ada Lovelace is checked in.',
      },
    },
    'n-already': {
      status: 409,
      body: {
        ...problemBody(409, `Ada Lovelace was already checked in at ${at}.`, {
          code: 'already_checked_in',
          extensions: { invite, checked_in_at: at, scanne_par: null },
        }),
        result: 'already_checked_in',
      },
    },
    'n-unknown': {
      status: 404,
      body: {
        ...problemBody(404, 'No invite has this code.', { code: 'unknown_code', extensions: {} }),
        result: 'unknown_code',
      },
    },
    'n-wrong-event': {
      status: 422,
      body: {
        ...problemBody(422, 'This code belongs to another event.', { code: 'wrong_event', extensions: {} }),
        result: 'wrong_event',
      },
    },
    'n-revoked': {
      status: 409,
      body: {
        ...problemBody(409, 'The invite of Ada Lovelace was revoked.', {
          code: 'revoked',
          extensions: { invite },
        }),
        result: 'revoked',
      },
    },
  };

  before(async () => {
    database = await createTestDatabase('events_nonces_008');
    await migrateLatest(
      database.url,
      migrations.filter((m) => m.name < '008'),
    );
    db = createKnex(database.url);
    await db('events').insert({
      id: eventId,
      owner_id: alice.id,
      name: 'Launch',
      start_date: '2030-06-01T18:30:00',
      start_at: '2030-06-01T18:30:00',
      location: 'Lyon',
    });
    for (const [nonce, answer] of Object.entries(stored))
      await db('checkin_nonces').insert({
        event_id: eventId,
        nonce,
        status: answer.status,
        body: JSON.stringify(answer.body),
      });
    await migrateLatest(database.url, migrations);
    const issuer = createTestIssuer();
    app = createEventsApp({
      logger: testLogger('events'),
      db,
      keys: issuer.keys,
      issuer: issuer.issuer,
      bodyLimit: '1mb',
    }).app;
    auth = { authorization: `Bearer ${issuer.sign('events', alice)}` };
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  for (const nonce of ['n-checked-in', 'n-already', 'n-unknown', 'n-wrong-event', 'n-revoked'])
    it(`replays the stored answer of ${nonce} with the same status and body`, async () => {
      const res = await request(app)
        .post(`/api/events/${eventId}/checkin`)
        .set(auth)
        .send({ code_unique: 'ANYCODE234', nonce });
      expect(res.status).to.equal(stored[nonce]!.status);
      expect(res.body).to.deep.equal(stored[nonce]!.body);
      expect(res.headers['idempotent-replayed']).to.equal('true');
    });

  it('replays a converted nonce in an offline batch with the stored status and body', async () => {
    const res = await request(app)
      .post(`/api/events/${eventId}/checkin/batch`)
      .set(auth)
      .send({ scans: [{ code_unique: 'ANYCODE234', nonce: 'n-already' }] })
      .expect(200);
    expect(res.body.results).to.deep.equal([
      { index: 0, nonce: 'n-already', replayed: true, ...stored['n-already']!.body },
    ]);
  });
});
