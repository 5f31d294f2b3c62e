import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, migrateLatest } from '@fieldhouse/db';
import { migrations as collectionMigrations } from '@fieldhouse/collection';
import { migrations as gatewayMigrations } from '@fieldhouse/gateway';
import {
  Child,
  cpuProfileArgs,
  freePort,
  gatewayChild,
  registerUser,
  SERVER_ENV,
  waitReady,
} from './child.ts';
import { benchBacking, signingKeyPem, withDatabase } from './backing.ts';
import { onCleanup } from './run.ts';

/** A published project of a bench: its version and each field's uuid by name. */
export interface BenchProject {
  projectId: number;
  versionId: number;
  uuids: Record<string, string>;
}

/** The collection service and the gateway of a bench, with a registered user and a workspace. */
export interface CollectionStack {
  tag: string;
  gatewayUrl: string;
  /** The collection database's URL (bulk loads write to it directly). */
  collectionUrl: string;
  collection: Child;
  gateway: Child;
  /** The bench user's bearer token. */
  token: string;
  workspaceId: number;
  /** One JSON call through the gateway as the bench user: its `data`; throws on a status >= 300. */
  call: <T = { id: number; uuid: string }>(method: string, path: string, body?: unknown) => Promise<T>;
  /** A project named `name` in the workspace with a published version of `fields`, itself published. */
  makeProject: (name: string, fields: ReadonlyArray<{ name: string }>) => Promise<BenchProject>;
}

/**
 * Starts the collection service and the gateway as child processes on free loopback ports with
 * fresh databases (migrated; rate limits very high, SERVER_ENV), waits until both are ready (up to
 * 3 minutes: a loaded machine takes over a minute), registers a bench user and makes a
 * workspace. Everything it starts or creates is undone by the bench's cleanup (bench/lib/run.ts),
 * in reverse: processes first, then databases and the blob directory. `cpuProfile` runs the
 * service with the CPU profiler of bench/lib/child.ts when asked for.
 */
export async function startCollectionStack(opts: { cpuProfile?: boolean } = {}): Promise<CollectionStack> {
  const backing = benchBacking();
  const tag = randomBytes(3).toString('hex');
  const identityUrl = withDatabase(backing.postgres, `bench_identity_${tag}`);
  const collectionUrl = withDatabase(backing.postgres, `bench_collection_${tag}`);
  const blobDir = await mkdtemp(join(tmpdir(), 'bench-blobs-'));
  onCleanup('remove the blob directory', () => rm(blobDir, { recursive: true, force: true }));
  onCleanup('drop databases', () => Promise.all([dropDatabase(identityUrl), dropDatabase(collectionUrl)]));
  await migrateLatest(identityUrl, gatewayMigrations);
  await migrateLatest(collectionUrl, collectionMigrations);
  const [gwPort, colPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gwPort}`;
  const collection = new Child(
    'collection',
    'services/collection/src/main.ts',
    {
      ...SERVER_ENV,
      AMQP_URL: backing.amqp,
      AMQP_PREFIX: `bench.${tag}.`,
      PORT: String(colPort),
      DATABASE_URL: collectionUrl,
      GATEWAY_JWKS_URL: `${gatewayUrl}/.well-known/jwks.json`,
      BLOB_DIR: blobDir,
      DB_POOL_MAX: '20',
    },
    opts.cpuProfile ? cpuProfileArgs('collection') : undefined,
  );
  onCleanup('stop collection', () => collection.stop());
  const gateway = gatewayChild({
    port: gwPort,
    databaseUrl: identityUrl,
    redisUrl: backing.redis,
    amqpUrl: backing.amqp,
    prefix: `bench.${tag}.`,
    upstreams: { COLLECTION_URL: `http://127.0.0.1:${colPort}` },
    privateKeyPem: signingKeyPem(),
  });
  onCleanup('stop gateway', () => gateway.stop());
  await waitReady(collection, `http://127.0.0.1:${colPort}/healthz`, 180_000);
  await waitReady(gateway, `${gatewayUrl}/healthz`, 180_000);
  const { token } = await registerUser(gatewayUrl, {
    name: 'Bench',
    email: `bench-${tag}@example.test`,
    password: 'a long bench password',
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as { data: T };
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  type Made = { id: number; uuid: string };
  const ws = await call<Made>('POST', '/api/v1/workspaces', { name: 'Bench' });
  const makeProject = async (
    name: string,
    fields: ReadonlyArray<{ name: string }>,
  ): Promise<BenchProject> => {
    const p = await call<Made>('POST', `/api/v1/workspaces/${ws.id}/projects`, { name });
    const v = await call<Made>('POST', `/api/v1/projects/${p.id}/versions`, {});
    const uuids: Record<string, string> = {};
    for (const f of fields)
      uuids[f.name] = (await call<Made>('POST', `/api/v1/versions/${v.id}/fields`, f)).uuid;
    await call('POST', `/api/v1/versions/${v.id}/publish`);
    await call('POST', `/api/v1/projects/${p.id}/publish`, {});
    return { projectId: p.id, versionId: v.id, uuids };
  };
  return {
    tag,
    gatewayUrl,
    collectionUrl,
    collection,
    gateway,
    token,
    workspaceId: ws.id,
    call: call as CollectionStack['call'],
    makeProject,
  };
}
