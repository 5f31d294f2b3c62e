/**
 * `npm run bench:export`: CSV export of --rows submissions (default 1,000,000) of a 20-field form
 * (issue 4, "Benchmarks").
 *
 * Fresh database; the form is built through the collection app (in this process), the rows
 * bulk-loaded with bench/collection/data.ts. Then, on the same rows and in the same run:
 *   (1) PostgreSQL's own `COPY (SELECT ...) TO STDOUT WITH CSV` of the export's query (metadata
 *       columns and the JSONB data), read to the end by this process (pg-copy-streams);
 *   (2) the export worker's `writeExportFile` (COPY of the computed columns → blob store) in a child
 *       process, whose peak RSS is measured (`process.resourceUsage().maxRSS`); once as requested
 *       by default (spreadsheet formulas neutralised), once with `formula_escaping: false`.
 * Prints both times, the ratio (target <= 1.5) and the worker's peak RSS (target <= 256 MiB).
 *   (3) the "all data and media" zip (media.ts) of --media-rows submissions (default 1,000) with
 *       one photo of --photo-kib KiB each (default 256, random bytes: as incompressible as a
 *       JPEG), and of a tenth of them, each in a child process (V8 heap limit 64 MiB): time,
 *       size and peak RSS. Targets:
 *       peak RSS <= 256 MiB, and the larger zip's peak RSS within 32 MiB of the smaller's while
 *       the archive grows by 0.9 x rows x photo size (memory does not grow with the photos).
 * Exit 1 when a target is missed. Backing service: POSTGRES_URL, else 127.0.0.1:5432.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { benchFields, bulkLoad, submissionBody } from '../collection/data.ts';
import { publishBenchForm, startInProcessCollection } from '../collection/in-process.ts';
import { loadPhotoProject } from './media.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: process.env.BENCH_ROWS ?? '1000000' },
    'media-rows': { type: 'string', default: '1000' },
    'photo-kib': { type: 'string', default: '256' },
  },
});
const rows = Number(args.rows);
const mediaRows = Number(args['media-rows']);
const photoKiB = Number(args['photo-kib']);
/** V8 heap of the media zip's child process (MiB); the worker process has 160 (package.json). */
const ZIP_HEAP_MIB = 64;
process.env.POSTGRES_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
const here = dirname(fileURLToPath(import.meta.url));

const { url, db, call, stopListening, close } = await startInProcessCollection({
  label: 'bench_export',
  bodyLimit: '1mb',
  poolMax: 4,
});
const blobDir = await mkdtemp(join(tmpdir(), 'bench-export-'));

let failed = false;
try {
  const { workspaceId, projectId, versionId, uuids } = await publishBenchForm(call, 'Export bench');
  // (3)'s projects: photos of `photoKiB` each, the smaller one a tenth of the rows.
  const small = await loadPhotoProject(call, db, blobDir, Math.max(1, Math.round(mediaRows / 10)), photoKiB);
  const large = await loadPhotoProject(call, db, blobDir, mediaRows, photoKiB);
  stopListening();
  const t0 = performance.now();
  await bulkLoad(db, projectId, versionId, rows, submissionBody(versionId, uuids).data);
  console.log(
    `export bench: ${rows} submissions of a ${benchFields.length}-field form loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // (1) COPY of the same rows, same order, same joins.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t1 = performance.now();
  let copyBytes = 0;
  await new Promise<void>((ok, fail) => {
    const stream = client.query(
      copyTo(`COPY (SELECT s.id, s.status, s.collector_id, u.name, v.number, s.created_at, s.updated_at,
                           s.latitude, s.longitude, s.data
                    FROM submissions s LEFT JOIN users u ON u.id = s.collector_id
                    JOIN form_versions v ON v.id = s.form_version_id
                    WHERE s.project_id = ${projectId}
                    ORDER BY s.created_at, s.id) TO STDOUT WITH CSV HEADER`),
    );
    stream.on('data', (c: Buffer) => (copyBytes += c.length));
    stream.on('end', ok);
    stream.on('error', fail);
  });
  const copyMs = performance.now() - t1;

  await client.end();

  // (2) the worker's export, in a child process: as requested by default (formulas
  // neutralised), then without formula escaping (the raw values), to show what the escaping costs.
  const exportInChild = async (
    options: object,
    job = { format: 'csv', project_id: projectId, workspace_id: workspaceId },
  ) => {
    const id = randomUUID();
    await db('exports').insert({
      id,
      ...job,
      requested_by: 1,
      filters: '{}',
      options: JSON.stringify(options),
    });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        // The zip in a 64 MiB heap: with 128 V8 lets garbage pile up before collecting it
        // (+30 MiB of RSS from 100 to 1,000 photos, none of it live), which hides whether
        // anything is held; 64 collects sooner, so a growth is what the zip keeps.
        `--max-old-space-size=${job.format === 'zip' ? ZIP_HEAP_MIB : 128}`,
        '--max-semi-space-size=16',
        // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the export worker.
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        join(here, 'child.ts'),
        url,
        blobDir,
        id,
      ],
      { maxBuffer: 1 << 20 },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      ms: number;
      rows: number;
      bytes: number;
      maxRssMiB: number;
    };
  };
  const r = await exportInChild({});
  const raw = await exportInChild({ formula_escaping: false });
  const ratio = r.ms / copyMs;
  const mib = (b: number) => (b / 1024 / 1024).toFixed(0);
  console.log(
    `  COPY ... TO STDOUT WITH CSV  ${(copyMs / 1000).toFixed(2)} s  (${mib(copyBytes)} MiB, JSONB as one column)`,
  );
  console.log(
    `  export worker (CSV)          ${(r.ms / 1000).toFixed(2)} s  (${r.rows} rows, ${mib(r.bytes)} MiB, one column per field)`,
  );
  console.log(
    `  same, formula_escaping false  ${(raw.ms / 1000).toFixed(2)} s  (${raw.rows} rows, ${mib(raw.bytes)} MiB): escaping costs ${(((r.ms - raw.ms) / raw.ms) * 100).toFixed(0)} %`,
  );
  console.log(`  ratio ${ratio.toFixed(2)} (target <= 1.5): ${ratio <= 1.5 ? 'PASS' : 'FAIL'}`);
  console.log(
    `  worker peak RSS ${r.maxRssMiB.toFixed(0)} MiB (target <= 256): ${r.maxRssMiB <= 256 ? 'PASS' : 'FAIL'}`,
  );
  if (r.rows !== rows || r.maxRssMiB > 256 || ratio > 1.5) failed = true;

  // (3) the media zip, of a tenth of the photos and of all of them.
  const zipOf = (p: typeof large) =>
    exportInChild({}, { format: 'zip', project_id: p.projectId, workspace_id: p.workspaceId });
  const zs = await zipOf(small);
  const zl = await zipOf(large);
  const growth = zl.maxRssMiB - zs.maxRssMiB;
  for (const [z, p] of [
    [zs, small],
    [zl, large],
  ] as const)
    console.log(
      `  media zip: ${p.rows} submissions, ${p.rows} photos of ${photoKiB} KiB  ${(z.ms / 1000).toFixed(2)} s  (${mib(z.bytes)} MiB, ${(z.bytes / 1024 / 1024 / (z.ms / 1000)).toFixed(0)} MiB/s), worker peak RSS ${z.maxRssMiB.toFixed(0)} MiB (heap limit ${ZIP_HEAP_MIB} MiB)`,
    );
  const zipOk = zl.rows === large.rows && zl.maxRssMiB <= 256 && growth <= 32;
  console.log(
    `  media zip peak RSS ${zl.maxRssMiB.toFixed(0)} MiB (target <= 256), ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MiB from ${small.rows} to ${large.rows} photos while the zip grew ${mib(zl.bytes - zs.bytes)} MiB (target <= 32): ${zipOk ? 'PASS' : 'FAIL'}`,
  );
  if (!zipOk) failed = true;
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await close();
  await rm(blobDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
