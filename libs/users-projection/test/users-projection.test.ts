import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import type { Caller } from '@fieldhouse/internal-auth';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { defineProcessedMessagesTable } from '@fieldhouse/messaging';
import { errorMiddleware } from '@fieldhouse/problem';
import { createTestDatabase, testLogger, type TestDatabase } from '@fieldhouse/testkit';
import { callerSync, usersProjection, type UsersProjection } from '@fieldhouse/users-projection';

const event = (id: number, name: string, email: string, updated_at: string) => ({
  id,
  name,
  email,
  updated_at,
});

describe('users projection (real PostgreSQL)', () => {
  let db: TestDatabase;
  let knex: Knex;
  let users: UsersProjection;

  before(async () => {
    db = await createTestDatabase('users_projection');
    await migrateLatest(db.url, [
      {
        name: '001',
        up: async (k) => {
          await k.schema.createTable('users', (t) => {
            t.integer('id').primary();
            t.text('name').notNullable();
            t.text('email').notNullable();
            t.text('language');
            t.text('time_zone');
            t.timestamp('updated_at', { useTz: true }).notNullable();
          });
          await k.raw('CREATE INDEX users_email_lower ON users (lower(email))');
          await k.schema.createTable('processed_messages', defineProcessedMessagesTable(k));
        },
        down: async () => undefined,
      },
    ]);
    knex = createKnex(db.url);
    users = usersProjection({
      usersTable: 'users',
      processedMessagesTable: 'processed_messages',
      consumer: 'test.users',
    });
  });
  after(async () => {
    await knex?.destroy();
    await db?.drop();
  });

  describe('events', () => {
    it('applies user.created with the e-mail stored lower-cased', async () => {
      await users.applyEvent(knex, 'm-1', event(1, 'Ann', 'Ann@Example.TEST', '2026-01-01T10:00:00.000Z'));
      const row = await users.findById(knex, 1);
      expect(row).to.include({ id: 1, name: 'Ann', email: 'ann@example.test' });
      expect(row!.updated_at.toISOString()).to.equal('2026-01-01T10:00:00.000Z');
    });

    it('keeps the language and time zone of the newest event; events without them leave null', async () => {
      await users.applyEvent(
        knex,
        'm-lang-1',
        event(40, 'Lou', 'lou@example.test', '2026-01-01T10:00:00.000Z'),
      );
      expect(await users.findById(knex, 40)).to.include({ language: null, time_zone: null });
      await users.applyEvent(knex, 'm-lang-2', {
        ...event(40, 'Lou', 'lou@example.test', '2026-01-02T10:00:00.000Z'),
        language: 'fr',
        time_zone: 'Europe/Paris',
      });
      expect(await users.findById(knex, 40)).to.include({ language: 'fr', time_zone: 'Europe/Paris' });
      expect(await users.findByEmail(knex, 'LOU@example.test')).to.include({
        language: 'fr',
        time_zone: 'Europe/Paris',
      });
    });

    it('keeps the newest version: an older event delivered after a newer one changes nothing', async () => {
      await users.applyEvent(
        knex,
        'm-2a',
        event(2, 'Bob v2', 'bob2@example.test', '2026-01-02T10:00:00.000Z'),
      );
      await users.applyEvent(
        knex,
        'm-2b',
        event(2, 'Bob v1', 'bob1@example.test', '2026-01-01T10:00:00.000Z'),
      );
      expect(await users.findById(knex, 2)).to.include({ name: 'Bob v2', email: 'bob2@example.test' });
    });

    it('changes nothing for an event with the same updated_at as the stored version (tie)', async () => {
      await users.applyEvent(knex, 'm-3a', event(3, 'Cy', 'cy@example.test', '2026-01-01T10:00:00.000Z'));
      await users.applyEvent(
        knex,
        'm-3b',
        event(3, 'Cy tie', 'tie@example.test', '2026-01-01T10:00:00.000Z'),
      );
      expect(await users.findById(knex, 3)).to.include({ name: 'Cy', email: 'cy@example.test' });
    });

    it('applies a message id once: a duplicate is skipped even when it carries a newer version', async () => {
      expect(
        await users.applyEvent(knex, 'm-4', event(4, 'Di', 'di@example.test', '2026-01-01T10:00:00.000Z')),
      ).to.be.true;
      expect(
        await users.applyEvent(knex, 'm-4', event(4, 'Di 2', 'di2@example.test', '2026-02-01T10:00:00.000Z')),
      ).to.be.false;
      expect(await users.findById(knex, 4)).to.include({ name: 'Di', email: 'di@example.test' });
      const recorded = await knex('processed_messages').where({ consumer: 'test.users', message_id: 'm-4' });
      expect(recorded).to.have.length(1);
    });

    it('ends on the newest version when a whole history is replayed out of order', async () => {
      const history = [
        event(5, 'Eve 1', 'eve1@example.test', '2026-01-01T10:00:00.000Z'),
        event(5, 'Eve 2', 'eve2@example.test', '2026-01-02T10:00:00.000Z'),
        event(5, 'Eve 3', 'eve3@example.test', '2026-01-03T10:00:00.000Z'),
      ];
      for (const [i, e] of history.entries()) await users.applyEvent(knex, `m-5-${i}`, e);
      // A replay from the dead-letter queue (same ids) and a re-publication (new ids), newest first.
      for (const [i, e] of [...history.entries()].reverse()) await users.applyEvent(knex, `m-5-${i}`, e);
      for (const [i, e] of [...history.entries()].reverse()) await users.applyEvent(knex, `m-5-r${i}`, e);
      const row = await users.findById(knex, 5);
      expect(row).to.include({ name: 'Eve 3', email: 'eve3@example.test' });
      expect(row!.updated_at.toISOString()).to.equal('2026-01-03T10:00:00.000Z');
    });
  });

  describe('claims', () => {
    it('records a caller not yet known, with the e-mail lower-cased', async () => {
      expect(await users.recordCaller(knex, { id: 10, name: 'Fay', email: 'Fay@Example.test' })).to.be.true;
      expect(await users.findById(knex, 10)).to.include({ name: 'Fay', email: 'fay@example.test' });
    });

    it('writes nothing when the claims equal the stored user (e-mail compared case-insensitively)', async () => {
      await users.applyEvent(knex, 'm-11', event(11, 'Gus', 'gus@example.test', '2026-01-01T10:00:00.000Z'));
      expect(await users.recordCaller(knex, { id: 11, name: 'Gus', email: 'GUS@example.test' })).to.be.false;
      const row = await users.findById(knex, 11);
      expect(row!.updated_at.toISOString()).to.equal('2026-01-01T10:00:00.000Z');
    });

    it('lets an event newer than a claims-recorded user replace it', async () => {
      await users.recordCaller(knex, { id: 12, name: 'Hal', email: 'hal@example.test' });
      await users.applyEvent(
        knex,
        'm-12',
        event(12, 'Hal R.', 'hal.r@example.test', '2099-01-01T10:00:00.000Z'),
      );
      expect(await users.findById(knex, 12)).to.include({ name: 'Hal R.', email: 'hal.r@example.test' });
    });

    it('never changes a known user from claims: a stale claim after a newer event changes nothing', async () => {
      await users.applyEvent(
        knex,
        'm-13a',
        event(13, 'Ivy B.', 'ivy.b@example.test', '2026-01-02T10:00:00.000Z'),
      );
      expect(await users.recordCaller(knex, { id: 13, name: 'Ivy', email: 'ivy@example.test' })).to.be.false;
      const row = await users.findById(knex, 13);
      expect(row).to.include({ name: 'Ivy B.', email: 'ivy.b@example.test' });
      expect(row!.updated_at.toISOString()).to.equal('2026-01-02T10:00:00.000Z');
    });

    it('finds a user by e-mail whatever its case', async () => {
      await users.applyEvent(
        knex,
        'm-20',
        event(20, 'Jo', 'Jo.Smith@Example.test', '2026-01-01T10:00:00.000Z'),
      );
      expect(await users.findByEmail(knex, 'JO.SMITH@EXAMPLE.TEST')).to.include({ id: 20, name: 'Jo' });
      expect(await users.findByEmail(knex, 'jo.smith@example.test')).to.include({ id: 20 });
    });

    it('finds a row stored before lower-casing (mixed case in the table) by e-mail', async () => {
      await knex('users').insert({ id: 21, name: 'Kim', email: 'Kim@Example.test', updated_at: new Date() });
      expect(await users.findByEmail(knex, 'kim@EXAMPLE.test')).to.include({ id: 21 });
    });

    it('answers undefined for an unknown id or e-mail', async () => {
      expect(await users.findById(knex, 999)).to.be.undefined;
      expect(await users.findByEmail(knex, 'nobody@example.test')).to.be.undefined;
    });
  });

  describe('callerSync middleware', () => {
    /** An app whose callers are given by the `x-test-caller` header (what requireGateway sets). */
    const appWith = (requireUser: boolean, maxEntries?: number) => {
      const app = express();
      app.use((req, _res, next) => {
        const header = req.get('x-test-caller');
        const claims = header ? (JSON.parse(header) as Partial<Caller>) : {};
        req.caller = {
          userId: claims.userId ?? null,
          name: claims.name ?? null,
          email: claims.email ?? null,
          emailVerified: claims.emailVerified === true,
          tokenId: null,
          device: null,
          method: claims.userId ? 'token' : 'anonymous',
          ip: null,
          requestTokenId: 'jti',
        };
        next();
      });
      app.use(callerSync(users, knex, { requireUser, maxEntries }));
      app.get('/', (_req, res) => void res.json({ ok: true }));
      app.use(errorMiddleware(testLogger('users-projection')));
      return app;
    };
    const as = (userId: number, name: string, email: string) =>
      JSON.stringify({ userId, name, email } satisfies Partial<Caller>);

    it('answers 401 to an anonymous caller when a user is required (spec 5.6)', async () => {
      const res = await request(appWith(true)).get('/').expect(401);
      expect(res.body.code).to.equal('unauthenticated');
    });

    it('lets an anonymous caller through when a user is not required', async () => {
      await request(appWith(false)).get('/').expect(200);
    });

    it('records the caller from the claims on the first request', async () => {
      await request(appWith(true))
        .get('/')
        .set('x-test-caller', as(30, 'Lea', 'Lea@Example.test'))
        .expect(200);
      expect(await users.findById(knex, 30)).to.include({ name: 'Lea', email: 'lea@example.test' });
    });

    it('skips the database for claims it already recorded, and writes again when they change', async () => {
      const app = appWith(true);
      const call = (name: string) =>
        request(app)
          .get('/')
          .set('x-test-caller', as(31, name, 'max@example.test'))
          .expect(200);
      await call('Max');
      await knex('users').where({ id: 31 }).delete();
      await call('Max');
      expect(await users.findById(knex, 31), 'remembered claims: no write').to.equal(undefined);
      await call('Max B.');
      expect(await users.findById(knex, 31)).to.include({ name: 'Max B.' });
    });

    it('forgets the oldest caller when the cache is full', async () => {
      const app = appWith(true, 1);
      await request(app)
        .get('/')
        .set('x-test-caller', as(32, 'Ned', 'ned@example.test'))
        .expect(200);
      await request(app)
        .get('/')
        .set('x-test-caller', as(33, 'Oda', 'oda@example.test'))
        .expect(200);
      await knex('users').where({ id: 32 }).delete();
      await request(app)
        .get('/')
        .set('x-test-caller', as(32, 'Ned', 'ned@example.test'))
        .expect(200);
      expect(await users.findById(knex, 32), 'forgotten claims: written again').to.include({ name: 'Ned' });
    });
  });
});
