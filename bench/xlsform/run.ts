/**
 * `npm run bench:xlsform`: an XLSForm of 500 survey rows imports in ≤ 2 s (issue 35, "Speed").
 *
 * Builds a 500-row household XLSForm with exceljs (two languages; groups and repeats; selects
 * with a cascading choice_filter; relevant, constraint, required and calculation expressions;
 * its choices sheet), starts the collection app in this process on a fresh database, and POSTs
 * the workbook as `multipart/form-data` (part `xlsform`) to `/projects/{id}/versions`: one
 * warm-up import (the process's first: modules and JIT cold, printed apart), then --runs imports
 * (default 7), each a new draft: the time of each answer (201), the median and the slowest; PASS
 * when the median ≤ 2 s. Also the time of translating the workbook alone (`xlsformCommand`, no
 * database), of downloading the version back as XLSForm, and the machine's load average (the
 * figures are wall-clock times on a shared machine).
 * Backing service: POSTGRES_URL, else 127.0.0.1:5432.
 */
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createCollectionApp, migrations } from '@fieldhouse/collection';
import { createKnex, migrateLatest } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { createTestDatabase, createTestIssuer } from '@fieldhouse/testkit';
import { xlsformCommand } from '../../services/collection/src/domain/xlsform-import.ts';
import { onCleanup, runBench } from '../lib/run.ts';
import { benchWorkbook } from './workbook.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, rows: { type: 'string', default: '500' } },
});
const TARGET_MS = 2000;

async function main() {
  const rows = Number(args.rows);
  const runs = Number(args.runs);
  const bytes = await benchWorkbook(rows);
  console.log(`XLSForm: ${rows} survey rows, ${bytes.length} bytes`);

  process.env.POSTGRES_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
  const tdb = await createTestDatabase('bench_xlsform');
  onCleanup('database', () => tdb.drop());
  await migrateLatest(tdb.url, migrations);
  const db = createKnex(tdb.url);
  onCleanup('pool', () => db.destroy());
  const issuer = createTestIssuer();
  const { app } = createCollectionApp({
    logger: createLogger({ service: 'bench-xlsform', level: 'silent' }),
    db,
    keys: issuer.keys,
    issuer: issuer.issuer,
    bodyLimit: '1mb',
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  onCleanup('server', () => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const headers = {
    Authorization: `Bearer ${issuer.sign('collection', { id: 1, name: 'Bench', email: 'b@example.test' })}`,
  };
  const json = async (path: string, body: unknown) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: number } }).data;
  };
  const ws = await json('/workspaces', { name: 'Bench' });
  const project = await json(`/workspaces/${ws.id}/projects`, { name: 'XLSForm bench' });

  const t0 = performance.now();
  const command = await xlsformCommand(bytes);
  console.log(
    `translate only (xlsformCommand): ${(performance.now() - t0).toFixed(0)} ms, ${command.fields?.length} fields`,
  );

  const times: number[] = [];
  let versionId = 0;
  let warmUp = 0;
  for (let i = -1; i < runs; i++) {
    const form = new FormData();
    form.append('xlsform', new Blob([new Uint8Array(bytes)]), 'bench.xlsx');
    const start = performance.now();
    const res = await fetch(`${base}/projects/${project.id}/versions`, {
      method: 'POST',
      headers,
      body: form,
    });
    const ms = performance.now() - start;
    if (res.status !== 201) throw new Error(`import: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    versionId = ((await res.json()) as { data: { id: number } }).data.id;
    if (i < 0) warmUp = ms;
    else times.push(ms);
  }
  const start = performance.now();
  const back = await fetch(`${base}/versions/${versionId}/xlsform`, { headers });
  const size = (await back.arrayBuffer()).byteLength;
  const exportMs = performance.now() - start;

  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const slowest = sorted[sorted.length - 1]!;
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${availableParallelism()} cores)`,
  );
  console.log(`import warm-up (first of the process): ${warmUp.toFixed(0)} ms`);
  console.log(`import (POST multipart → 201), ${runs} runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`median ${median.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms (target ≤ ${TARGET_MS} ms)`);
  console.log(`export (GET /versions/{id}/xlsform): ${exportMs.toFixed(0)} ms, ${size} bytes`);
  const pass = median <= TARGET_MS;
  console.log(pass ? 'PASS' : 'FAIL');
  if (!pass) process.exitCode = 1;
}

await runBench(main);
