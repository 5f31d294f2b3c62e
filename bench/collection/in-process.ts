import type { AddressInfo } from 'node:net';
import { createCollectionApp, migrations } from '@fieldhouse/collection';
import { createKnex, migrateLatest, type Knex } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { createTestDatabase, createTestIssuer } from '@fieldhouse/testkit';
import { benchFields } from './data.ts';

/** A call to the in-process collection API: resolves the answer's `data`, throws on a non-2xx. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

export interface InProcessCollection {
  /** URL of the fresh database. */
  url: string;
  db: Knex;
  call: ApiCall;
  /** Stops the HTTP listener (the database stays until {@link close}). */
  stopListening: () => void;
  /** Stops the listener, closes the pool and drops the database. */
  close: () => Promise<void>;
}

/**
 * The collection app in this process on a loopback port, on a fresh migrated database, called
 * as user 1 with a stand-in gateway issuer (benchmarks that measure the service, not the
 * gateway). Backing service: POSTGRES_URL, else 127.0.0.1:5432.
 */
export async function startInProcessCollection(opts: {
  label: string;
  bodyLimit: string;
  poolMax: number;
}): Promise<InProcessCollection> {
  process.env.POSTGRES_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
  const tdb = await createTestDatabase(opts.label);
  await migrateLatest(tdb.url, migrations);
  const db = createKnex(tdb.url, { poolMax: opts.poolMax });
  const issuer = createTestIssuer();
  const { app } = createCollectionApp({
    logger: createLogger({ service: opts.label, level: 'silent' }),
    db,
    keys: issuer.keys,
    issuer: issuer.issuer,
    bodyLimit: opts.bodyLimit,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const token = `Bearer ${issuer.sign('collection', { id: 1, name: 'Bench', email: 'bench@example.test' })}`;
  const call: ApiCall = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const stopListening = () => void server.close();
  return {
    url: tdb.url,
    db,
    call,
    stopListening,
    close: async () => {
      stopListening();
      await db.destroy();
      await tdb.drop();
    },
  };
}

/**
 * Creates a workspace, a project and the published 20-field bench form (data.ts) through the
 * API; resolves with the project id, version id and each field's uuid by name.
 */
export async function publishBenchForm(call: ApiCall, projectName: string) {
  const ws = await call('POST', '/workspaces', { name: 'Bench' });
  const project = await call('POST', `/workspaces/${ws.id}/projects`, { name: projectName });
  const version = await call('POST', `/projects/${project.id}/versions`, {});
  const uuids: Record<string, string> = {};
  for (const f of benchFields)
    uuids[f.name] = (await call('POST', `/versions/${version.id}/fields`, f)).uuid as string;
  await call('POST', `/versions/${version.id}/publish`);
  return {
    workspaceId: ws.id as number,
    projectId: project.id as number,
    versionId: version.id as number,
    uuids,
  };
}
