/**
 * `npm run bench:export-recovery [-- --rows 20000]`: how long a CSV export whose worker is
 * killed mid-job takes to be taken over and to complete, with the worker's real settings
 * (EXPORT_LEASE_SECONDS, EXPORT_SWEEP_SECONDS: the defaults unless set; docs/reliability.md,
 * "Exports"). Target: completed within 60 s of the kill.
 *
 * Fresh database with --rows submissions (bench/collection/data.ts). Worker A (the real
 * `workers/main.ts` process) claims the export and is held mid-job by a lock on `submissions`;
 * worker B (a second process) starts; A is killed with SIGKILL and the lock released. Prints
 * the time from the kill to the takeover (B's claim) and to `completed`, and the export's own
 * duration. Exit 1 when the target is missed. Backing services: POSTGRES_URL, AMQP_URL, else
 * the local defaults.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bulkLoad, submissionBody } from '../collection/data.ts';
import { publishBenchForm, startInProcessCollection } from '../collection/in-process.ts';
import { eventually, startNodeProcess, type TestProcess } from '@fieldhouse/testkit';
import { benchBacking } from '../lib/backing.ts';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '20000' } } });
const rows = Number(args.rows);
const backing = benchBacking();
process.env.POSTGRES_URL ||= backing.postgres;
const workerMain = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../services/collection/src/workers/main.ts',
);

const { url, db, call, stopListening, close } = await startInProcessCollection({
  label: 'bench_export_recovery',
  bodyLimit: '1mb',
  poolMax: 4,
});
const blobDir = await mkdtemp(join(tmpdir(), 'bench-export-recovery-'));
const prefix = `bench-exprec.${randomBytes(3).toString('hex')}.`;
const workers: TestProcess[] = [];
/** Starts a real worker process (workers/main.ts); resolves once it consumes. */
async function startWorker(name: string): Promise<TestProcess> {
  const worker = startNodeProcess(workerMain, {
    DATABASE_URL: url,
    AMQP_URL: backing.amqp,
    AMQP_PREFIX: prefix,
    BLOB_DIR: blobDir,
    LOG_LEVEL: 'info',
  });
  workers.push(worker);
  await eventually(async () => {
    if (worker.child.exitCode !== null)
      throw new Error(`worker ${name} exited before starting:\n${worker.output()}`);
    return worker.output().includes('collection worker started');
  }, 30_000);
  return worker;
}

const job = (id: string) =>
  db('exports').where({ id }).first() as Promise<{
    status: string;
    attempts: number;
    started_at: Date;
    finished_at: Date | null;
  }>;

let failed: boolean;
try {
  const { projectId, versionId, uuids } = await publishBenchForm(call, 'Export recovery bench');
  await bulkLoad(db, projectId, versionId, rows, submissionBody(versionId, uuids).data);

  const a = await startWorker('A');
  const lock = await db.transaction();
  await lock.raw('LOCK TABLE submissions IN ACCESS EXCLUSIVE MODE');
  const { job_id: id } = (await call('POST', `/projects/${projectId}/submissions/export`, {
    format: 'csv',
  })) as { job_id: string };
  stopListening();
  await eventually(async () => (await job(id)).status === 'running', 30_000);
  await startWorker('B');
  const exited = new Promise((r) => a.child.once('exit', r));
  a.child.kill('SIGKILL');
  await exited;
  const killedAt = Date.now();
  await lock.commit();
  const taken = await eventually(
    async () => ((await job(id)).attempts >= 2 ? Date.now() : undefined),
    120_000,
  );
  const done = await eventually(async () => {
    const j = await job(id);
    return j.status === 'completed' || j.status === 'failed' ? j : undefined;
  }, 120_000);
  const doneAt = Date.now();
  const total = (doneAt - killedAt) / 1000;
  const lease = process.env.EXPORT_LEASE_SECONDS ?? '15 (default)';
  const sweep = process.env.EXPORT_SWEEP_SECONDS ?? '10 (default)';
  console.log(`export recovery bench: ${rows} submissions, lease ${lease} s, sweep ${sweep} s`);
  console.log(
    `  killed worker A mid-export; worker B took the job over after ${((taken - killedAt) / 1000).toFixed(1)} s`,
  );
  console.log(
    `  ${done.status} ${total.toFixed(1)} s after the kill (the export itself: ${((done.finished_at!.getTime() - done.started_at.getTime()) / 1000).toFixed(1)} s; attempts ${done.attempts}); target 60 s: ${done.status === 'completed' && total <= 60 ? 'met' : 'MISSED'}`,
  );
  failed = done.status !== 'completed' || total > 60;
} finally {
  for (const w of workers) w.child.kill('SIGKILL');
  await close();
  await rm(blobDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
