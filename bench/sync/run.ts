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
import { parseArgs } from 'node:util';
import { benchFields, submissionBody } from '../collection/data.ts';
import { publishBenchForm, startInProcessCollection } from '../collection/in-process.ts';

const { values: args } = parseArgs({ options: { items: { type: 'string', default: '500' } } });
const items = Number(args.items);

const { call, close } = await startInProcessCollection({
  label: 'bench_sync',
  bodyLimit: '20mb',
  poolMax: 10,
});

let failed = false;
try {
  const { projectId, versionId, uuids } = await publishBenchForm(call, 'Sync bench');
  await call('POST', `/projects/${projectId}/publish`, { allow_edits: true });

  const template = submissionBody(versionId, uuids);
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
  await close();
}
process.exit(failed ? 1 : 0);
