/**
 * `npm run bench:sync`: offline synchronisation (issue 4, "Benchmarks").
 *
 * Runs the collection app in this process on a loopback port with a fresh migrated database and
 * a stand-in gateway issuer, builds a published 20-field form (bench/collection/data.ts) through
 * the API, then sends one `POST /api/v1/sync` batch of --items items (default 500, the maximum)
 * three times: first (every item created), replayed (every item unchanged), and with every
 * `client_updated_at` one minute later (every item updated). Prints each time, and exits 1 when
 * a result is not what it should be. Backing service: POSTGRES_URL, else 127.0.0.1:5432.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createKnex, migrateLatest } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { createCollectionApp, migrations } from '@fieldhouse/collection';
import { createTestDatabase, createTestIssuer } from '@fieldhouse/testkit';
import { benchFields, submissionBody } from '../collection/data.ts';

const { values: args } = parseArgs({ options: { items: { type: 'string', default: '500' } } });
const items = Number(args.items);
process.env.POSTGRES_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';

const tdb = await createTestDatabase('bench_sync');
await migrateLatest(tdb.url, migrations);
const db = createKnex(tdb.url, { poolMax: 10 });
const issuer = createTestIssuer();
const { app } = createCollectionApp({
  logger: createLogger({ service: 'bench-sync', level: 'silent' }),
  db,
  keys: issuer.keys,
  issuer: issuer.issuer,
  bodyLimit: '20mb',
});
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
const token = `Bearer ${issuer.sign('collection', { id: 1, name: 'Bench', email: 'bench@example.test' })}`;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

let failed = false;
try {
  const ws = await call('POST', '/workspaces', { name: 'Bench' });
  const project = await call('POST', `/workspaces/${ws.id}/projects`, { name: 'Sync bench' });
  const version = await call('POST', `/projects/${project.id}/versions`, {});
  const uuids: Record<string, string> = {};
  for (const f of benchFields)
    uuids[f.name] = (await call('POST', `/versions/${version.id}/fields`, f)).uuid as string;
  await call('POST', `/versions/${version.id}/publish`);
  await call('POST', `/projects/${project.id}/publish`, { allow_edits: true });

  const template = submissionBody(version.id as number, uuids);
  const batch = (at: string) => ({
    device_id: 'bench-device',
    submissions: Array.from({ length: items }, (_, i) => ({
      ...template,
      local_id: `item-${i}`,
      client_updated_at: at,
    })),
  });
  const bytes = JSON.stringify(batch('2026-01-01T00:00:00.000Z')).length;
  console.log(
    `sync bench: ${items} items of a ${benchFields.length}-field form, ${(bytes / 1024).toFixed(0)} KiB per batch`,
  );
  for (const [label, at, expected] of [
    ['first', '2026-01-01T00:00:00.000Z', 'created'],
    ['replayed', '2026-01-01T00:00:00.000Z', 'unchanged'],
    ['newer', '2026-01-01T00:01:00.000Z', 'updated'],
  ] as const) {
    const t0 = performance.now();
    const data = await call('POST', '/sync', batch(at));
    const ms = performance.now() - t0;
    const results = data.results as Array<{ status: string }>;
    const wrong = results.filter((r) => r.status !== expected).length;
    if (wrong || results.length !== items) failed = true;
    console.log(
      `  ${label.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  (${((items / ms) * 1000).toFixed(0)} items/s; ${results.length - wrong} ${expected}${wrong ? `, ${wrong} otherwise: FAIL` : ''})`,
    );
  }
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  server.close();
  await db.destroy();
  await tdb.drop();
}
process.exit(failed ? 1 : 0);
