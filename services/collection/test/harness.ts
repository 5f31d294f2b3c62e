import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import type { InternalClaims } from '@fieldhouse/internal-auth';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import {
  backingUrl,
  createTestDatabase,
  createTestIssuer,
  randomPrefix,
  testLogger,
  type TestDatabase,
} from '@fieldhouse/testkit';
import { startExportWorker, type ExportSettings } from '../src/workers/exports.ts';
import { createCollectionApp, migrations } from '../src/index.ts';
import { FileBlobStore, type BlobStore } from '../src/blob/blob-store.ts';

/**
 * A user of the tests as the gateway's internal JWT names them: `id` is the numeric user id the
 * JWT carries (and the users projection stores), `name` and `email` its other claims.
 */
export interface TestUser {
  id: number;
  name: string;
  email: string;
}

const actor = (id: number, name: string): TestUser => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.test`,
});

/**
 * The named actors of the collection tests, the one place where a name maps to a user id (ids in
 * alphabetical order, so a list sorted by name is sorted by id). A test takes the ones it needs
 * and says their roles where it sets them: `const { alice, bob } = cast; // alice owns, bob collects`.
 */
export const cast = {
  alice: actor(1, 'Alice'),
  bob: actor(2, 'Bob'),
  carol: actor(3, 'Carol'),
  dave: actor(4, 'Dave'),
  erin: actor(5, 'Erin'),
  frank: actor(6, 'Frank'),
  grace: actor(7, 'Grace'),
  heidi: actor(8, 'Heidi'),
  ivan: actor(9, 'Ivan'),
  judy: actor(10, 'Judy'),
  kevin: actor(11, 'Kevin'),
  laura: actor(12, 'Laura'),
  mallory: actor(13, 'Mallory'),
  nina: actor(14, 'Nina'),
  omar: actor(15, 'Omar'),
  peggy: actor(16, 'Peggy'),
  quinn: actor(17, 'Quinn'),
  rupert: actor(18, 'Rupert'),
  sybil: actor(19, 'Sybil'),
  trent: actor(20, 'Trent'),
  ursula: actor(21, 'Ursula'),
  victor: actor(22, 'Victor'),
  walter: actor(23, 'Walter'),
  xena: actor(24, 'Xena'),
  yusuf: actor(25, 'Yusuf'),
  zoe: actor(26, 'Zoe'),
} as const;

/** Supertest calls carrying one Authorization header. */
interface Agent {
  get: (p: string) => request.Test;
  post: (p: string) => request.Test;
  put: (p: string) => request.Test;
  delete: (p: string) => request.Test;
}

export interface Harness {
  app: Express;
  db: Knex;
  /** URL of the harness's database (for a child process: the real worker, say). */
  databaseUrl: string;
  blobDir: string;
  outboxKicks: number;
  /** Authorization header value for `actor` (anonymous when undefined), with `extra` claims. */
  auth: (actor?: TestUser, extra?: Partial<InternalClaims>) => string;
  /** Calls as `actor`, with `extra` claims (`{email_verified: true}`, say). */
  as: (actor: TestUser, extra?: Partial<InternalClaims>) => Agent;
  /** Calls with a gateway JWT that names no user (a visitor who is not signed in). */
  anonymous: () => Agent;
  close: () => Promise<void>;
}

/** The collection app on a fresh migrated database, with a stand-in gateway issuer. */
export async function startHarness(photoMaxBytes = 64 * 1024, blobs?: BlobStore): Promise<Harness> {
  const tdb: TestDatabase = await createTestDatabase('collection');
  await migrateLatest(tdb.url, migrations);
  const db = createKnex(tdb.url);
  const issuer = createTestIssuer();
  const blobDir = await mkdtemp(join(tmpdir(), 'blobs-'));
  const h = {
    outboxKicks: 0,
  } as Harness;
  const { app } = createCollectionApp({
    logger: testLogger('collection'),
    db,
    keys: issuer.keys,
    issuer: issuer.issuer,
    bodyLimit: '1mb',
    blobs: blobs ?? new FileBlobStore(blobDir),
    photoMaxBytes,
    outboxWritten: () => {
      h.outboxKicks++;
    },
  });
  const auth = (user?: TestUser, extra?: Partial<InternalClaims>) =>
    `Bearer ${issuer.sign('collection', user, extra)}`;
  const agent = (user?: TestUser, extra?: Partial<InternalClaims>): Agent => ({
    get: (p: string) => request(app).get(p).set('Authorization', auth(user, extra)),
    post: (p: string) => request(app).post(p).set('Authorization', auth(user, extra)),
    put: (p: string) => request(app).put(p).set('Authorization', auth(user, extra)),
    delete: (p: string) => request(app).delete(p).set('Authorization', auth(user, extra)),
  });
  return Object.assign(h, {
    app,
    db,
    databaseUrl: tdb.url,
    blobDir,
    auth,
    as: agent,
    anonymous: () => agent(),
    close: async () => {
      await db.destroy();
      await tdb.drop();
      await rm(blobDir, { recursive: true, force: true });
    },
  });
}

/** Ensures the users projection knows `users` (as a first request through the gateway does). */
export async function seen(h: Harness, ...users: TestUser[]) {
  for (const user of users) await h.as(user).get('/api/v1/workspaces').expect(200);
}

/** One field definition of each type (two of text), as the tests' forms hold them. */
export const allTypeFields = [
  { name: 'full_name', label: 'Name', type: 'text', required: true, constraints: { max_length: 20 } },
  { name: 'code', label: 'Code', type: 'text', constraints: { pattern: '[A-Z]{3}-\\d{2}' } },
  { name: 'age', label: 'Age', type: 'integer', required: true, constraints: { min: 0, max: 120 } },
  { name: 'weight', label: 'Weight', type: 'decimal', constraints: { min: 0.5, max: 500 } },
  { name: 'visit_date', label: 'Date', type: 'date' },
  { name: 'visit_time', label: 'Time', type: 'time' },
  {
    name: 'colour',
    label: 'Colour',
    type: 'select_one',
    choices: [
      { value: 'red', label: 'Red' },
      { value: 'blue', label: 'Blue' },
    ],
  },
  {
    name: 'fruits',
    label: 'Fruits',
    type: 'select_multiple',
    choices: [
      { value: 'apple', label: 'Apple' },
      { value: 'pear', label: 'Pear' },
      { value: 'kiwi', label: 'Kiwi' },
    ],
  },
  { name: 'place', label: 'Place', type: 'geopoint' },
  { name: 'picture', label: 'Picture', type: 'photo' },
] as const;

/** What {@link publishForm} makes: where the form is, and each field's id, uuid and type by name. */
export interface Form {
  workspaceId: number;
  projectId: number;
  versionId: number;
  fields: Record<string, { id: number; uuid: string; type: string }>;
}

/**
 * A workspace and a project owned by `owner`, with a version holding `fields` (created in order:
 * a field naming a `parent` comes after it), published, and the project published with
 * `opts.settings` (null: left unpublished); `opts.version` is the version's create body
 * (languages); `opts.members` joins users to the workspace with a role. Fails the test, with the
 * service's answer, when a field is refused.
 */
export async function publishForm(
  h: Harness,
  owner: TestUser,
  fields: readonly object[],
  opts: {
    names?: { workspace: string; project: string };
    version?: object;
    settings?: object | null;
    members?: Array<[TestUser, string]>;
  } = {},
): Promise<Form> {
  const names = opts.names ?? { workspace: 'WS', project: 'P' };
  const ws = await h.as(owner).post('/api/v1/workspaces').send({ name: names.workspace }).expect(201);
  const workspaceId = ws.body.data.id as number;
  const p = await h
    .as(owner)
    .post(`/api/v1/workspaces/${workspaceId}/projects`)
    .send({ name: names.project })
    .expect(201);
  const projectId = p.body.data.id as number;
  const v = await h
    .as(owner)
    .post(`/api/v1/projects/${projectId}/versions`)
    .send(opts.version ?? {})
    .expect(201);
  const versionId = v.body.data.id as number;
  const made: Form['fields'] = {};
  for (const f of fields) {
    const r = await h.as(owner).post(`/api/v1/versions/${versionId}/fields`).send(f);
    if (r.status !== 201) throw new Error(`field ${JSON.stringify(f)} refused: ${JSON.stringify(r.body)}`);
    made[r.body.data.name as string] = { id: r.body.data.id, uuid: r.body.data.uuid, type: r.body.data.type };
  }
  await h.as(owner).post(`/api/v1/versions/${versionId}/publish`).expect(200);
  const settings = opts.settings === undefined ? {} : opts.settings;
  if (settings) await h.as(owner).post(`/api/v1/projects/${projectId}/publish`).send(settings).expect(200);
  for (const [member, role] of opts.members ?? []) await addMember(h, owner, workspaceId, member, role);
  return { workspaceId, projectId, versionId, fields: made };
}

/** Workspace + project + published version with {@link allTypeFields}, owned by `owner`. */
export const makeForm = (h: Harness, owner: TestUser, settings: object | null = {}): Promise<Form> =>
  publishForm(h, owner, allTypeFields, { settings });

/** A valid submission body for {@link makeForm}'s form (required fields only unless `extra`). */
export function body(form: Form, extra: Record<string, unknown> = {}, top: object = {}) {
  const values: Record<string, unknown> = { full_name: 'Ada', age: 36, ...extra };
  return {
    form_version_id: form.versionId,
    latitude: 48.85,
    longitude: 2.35,
    altitude: 35,
    precision: 5,
    data: Object.entries(values).map(([name, value]) => ({
      field_uuid: form.fields[name]!.uuid,
      type: form.fields[name]!.type,
      value,
    })),
    ...top,
  };
}

/** Adds `member` to the workspace with `role`, as its `owner`. */
export async function addMember(
  h: Harness,
  owner: TestUser,
  workspaceId: number,
  member: TestUser,
  role: string,
) {
  await seen(h, member);
  await h
    .as(owner)
    .post(`/api/v1/workspaces/${workspaceId}/members`)
    .send({ user_id: member.id, role })
    .expect(201);
}

/** A valid 1×1 PNG. */
export { PNG } from '@fieldhouse/testkit';

/** The export settings of the export tests: an hour's link, a 5 s lease beaten every 100 ms. */
const TEST_EXPORT_SETTINGS: ExportSettings = {
  ttlHours: 1,
  leaseMs: 5_000,
  heartbeatMs: 100,
  publicUrl: 'https://fieldhouse.example.org',
};

/** The export pipeline of a test: the broker, the outbox relay and an export worker on the harness's store. */
export interface ExportPipeline {
  broker: Broker;
  relay: OutboxRelay;
  /** Stops the worker, the relay and the broker (the harness is the caller's to close). */
  stop(): Promise<void>;
}

/**
 * Starts what turns a requested export into a file: a broker on its own RabbitMQ prefix
 * (`label` names it), the outbox relay of the harness's database (tests call `relay.drain()`)
 * and the export worker with the harness's blob directory and {@link TEST_EXPORT_SETTINGS}.
 */
export async function startExportPipeline(
  h: Harness,
  label: string,
  retryDelaysMs: number[] = [20],
): Promise<ExportPipeline> {
  const logger = testLogger(label);
  const broker = new Broker({
    url: await backingUrl('amqp'),
    logger,
    name: label,
    prefix: randomPrefix(label),
  });
  const relay = new OutboxRelay({ knex: h.db, table: 'outbox', broker, logger });
  const worker = await startExportWorker({
    broker,
    db: h.db,
    blobs: new FileBlobStore(h.blobDir),
    logger,
    settings: TEST_EXPORT_SETTINGS,
    retryDelaysMs,
  });
  return {
    broker,
    relay,
    async stop() {
      await worker.close();
      await relay.stop();
      await broker.close();
    },
  };
}
