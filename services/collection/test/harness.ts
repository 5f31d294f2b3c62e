import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import type { InternalClaims } from '@fieldhouse/internal-auth';
import { createTestDatabase, createTestIssuer, testLogger, type TestDatabase } from '@fieldhouse/testkit';
import { createCollectionApp, migrations } from '../src/index.ts';
import { FileBlobStore, type BlobStore } from '../src/blob/blob-store.ts';

export interface Harness {
  app: Express;
  db: Knex;
  /** URL of the harness's database (for a child process: the real worker, say). */
  databaseUrl: string;
  blobDir: string;
  outboxKicks: number;
  /** Authorization header value for user `id` (anonymous when undefined), with `extra` claims. */
  auth: (id?: number, extra?: Partial<InternalClaims>) => string;
  /** A supertest agent call as user `id`, with `extra` claims (`{email_verified: true}`, say). */
  as: (
    id: number | undefined,
    extra?: Partial<InternalClaims>,
  ) => {
    get: (p: string) => request.Test;
    post: (p: string) => request.Test;
    put: (p: string) => request.Test;
    delete: (p: string) => request.Test;
  };
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
  const auth = (id?: number, extra?: Partial<InternalClaims>) =>
    `Bearer ${issuer.sign('collection', id === undefined ? undefined : { id, name: `User ${id}`, email: `user${id}@example.test` }, extra)}`;
  return Object.assign(h, {
    app,
    db,
    databaseUrl: tdb.url,
    blobDir,
    auth,
    as: (id: number | undefined, extra?: Partial<InternalClaims>) => ({
      get: (p: string) => request(app).get(p).set('Authorization', auth(id, extra)),
      post: (p: string) => request(app).post(p).set('Authorization', auth(id, extra)),
      put: (p: string) => request(app).put(p).set('Authorization', auth(id, extra)),
      delete: (p: string) => request(app).delete(p).set('Authorization', auth(id, extra)),
    }),
    close: async () => {
      await db.destroy();
      await tdb.drop();
      await rm(blobDir, { recursive: true, force: true });
    },
  });
}

/** Ensures the users projection knows user `id` (as a first request through the gateway does). */
export async function seen(h: Harness, ...ids: number[]) {
  for (const id of ids) await h.as(id).get('/api/v1/workspaces').expect(200);
}

/** The 20 field definitions (one or more of each type but photo) used by tests and the bench. */
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

export interface Form {
  workspaceId: number;
  projectId: number;
  versionId: number;
  fields: Record<string, { id: number; uuid: string; type: string }>;
}

/** Workspace + project + published version with {@link allTypeFields}, owned by `owner`. */
export async function makeForm(h: Harness, owner: number, settings: object | null = {}): Promise<Form> {
  const ws = await h.as(owner).post('/api/v1/workspaces').send({ name: 'WS' }).expect(201);
  const workspaceId = ws.body.data.id as number;
  const p = await h
    .as(owner)
    .post(`/api/v1/workspaces/${workspaceId}/projects`)
    .send({ name: 'P' })
    .expect(201);
  const projectId = p.body.data.id as number;
  const v = await h.as(owner).post(`/api/v1/projects/${projectId}/versions`).send({}).expect(201);
  const versionId = v.body.data.id as number;
  const fields: Form['fields'] = {};
  for (const f of allTypeFields) {
    const r = await h.as(owner).post(`/api/v1/versions/${versionId}/fields`).send(f).expect(201);
    fields[f.name] = { id: r.body.data.id, uuid: r.body.data.uuid, type: f.type };
  }
  await h.as(owner).post(`/api/v1/versions/${versionId}/publish`).expect(200);
  if (settings) await h.as(owner).post(`/api/v1/projects/${projectId}/publish`).send(settings).expect(200);
  return { workspaceId, projectId, versionId, fields };
}

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

/** Adds `userId` to the workspace with `role`. */
export async function addMember(
  h: Harness,
  owner: number,
  workspaceId: number,
  userId: number,
  role: string,
) {
  await seen(h, userId);
  await h
    .as(owner)
    .post(`/api/v1/workspaces/${workspaceId}/members`)
    .send({ user_id: userId, role })
    .expect(201);
}

/** A valid 1×1 PNG. */
export { PNG } from '@fieldhouse/testkit';
