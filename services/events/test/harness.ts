import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { createTestDatabase, createTestIssuer, testLogger, type TestDatabase } from '@fieldhouse/testkit';
import { createEventsApp } from '../src/app.ts';
import { migrations } from '../src/migrations/index.ts';

export interface TestUser {
  id: number;
  name: string;
  email: string;
}

export interface Harness {
  app: Express;
  db: Knex;
  /** Authorization header of `user` as the gateway would sign it. */
  auth: (user: TestUser) => { authorization: string };
  /** Authorization header of a scanner device of `eventId`, as the gateway signs it (`amr: "device"`). */
  deviceAuth: (device: { id: string; eventId: string }) => { authorization: string };
  /** Authorization header of the gateway's own calls (`amr: "gateway"`). */
  gatewayAuth: () => { authorization: string };
  /** Creates an event owned by `owner`; resolves with its id. */
  event: (owner: TestUser, fields?: Record<string, unknown>) => Promise<string>;
  /** Creates an invite; resolves with `{id, nom, code_unique}`. */
  invite: (
    owner: TestUser,
    eventId: string,
    nom: string,
    email: string,
  ) => Promise<{ id: string; nom: string; code_unique: string }>;
  /** Makes `staff` (seen by the service first, as the gateway's JWT would) staff of the event. */
  addStaff: (owner: TestUser, eventId: string, staff: TestUser) => Promise<void>;
  close: () => Promise<void>;
}

export const alice: TestUser = { id: 1, name: 'Alice Owner', email: 'alice@example.test' };
export const bob: TestUser = { id: 2, name: 'Bob Staff', email: 'bob@example.test' };
export const carol: TestUser = { id: 3, name: 'Carol Outsider', email: 'carol@example.test' };
export const dave: TestUser = { id: 4, name: 'Dave Newcomer', email: 'dave@example.test' };

/** The events app on a fresh, migrated database, with a stand-in gateway issuer, and the named actors' helpers. */
export async function startHarness(label: string): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase(label);
  await migrateLatest(database.url, migrations);
  const db = createKnex(database.url);
  const issuer = createTestIssuer();
  const { app } = createEventsApp({
    logger: testLogger('events'),
    db,
    keys: issuer.keys,
    issuer: issuer.issuer,
    bodyLimit: '1mb',
    // Signed codes on, with a secret of this run only (keys are never committed).
    codeSigningSecret: randomBytes(32).toString('base64url'),
  });
  const auth = (user: TestUser) => ({ authorization: `Bearer ${issuer.sign('events', user)}` });
  return {
    app,
    db,
    auth,
    deviceAuth: (device) => ({
      authorization: `Bearer ${issuer.sign('events', undefined, {
        amr: 'device',
        dev: { id: device.id, evt: device.eventId, scope: 'checkin' },
      })}`,
    }),
    gatewayAuth: () => ({ authorization: `Bearer ${issuer.sign('events', undefined, { amr: 'gateway' })}` }),
    event: async (owner, fields = {}) => {
      const res = await request(app)
        .post('/api/events')
        .set(auth(owner))
        .send({ name: 'Launch', start_date: '2030-06-01T18:30:00', location: 'Lyon', ...fields })
        .expect(201);
      return res.body.id as string;
    },
    invite: async (owner, eventId, nom, email) => {
      const res = await request(app)
        .post(`/api/events/${eventId}/invites`)
        .set(auth(owner))
        .send({ nom, email, type_invite: 'standard' })
        .expect(201);
      return res.body;
    },
    addStaff: async (owner, eventId, staff) => {
      await request(app).get('/api/events').set(auth(staff));
      await request(app)
        .post(`/api/events/${eventId}/staff`)
        .set(auth(owner))
        .send({ user_id: staff.id })
        .expect(201);
    },
    close: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}
