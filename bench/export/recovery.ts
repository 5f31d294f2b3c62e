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
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bulkLoad, submissionBody } from '../collection/data.ts';
import { publishBenchForm, startInProcessCollection } from '../collection/in-process.ts';
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
const children: ChildProcess[] = [];

/** Starts a worker process; resolves once it logged that it started. */
async function startWorker(name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', workerMain], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      AMQP_URL: backing.amqp,
      AMQP_PREFIX: prefix,
      BLOB_DIR: blobDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('collection worker started')) ok();
    });
    child.once('exit', (code) => fail(new Error(`worker ${name} exited (${code}) before starting`)));
  });
  return child;
}

const until = async <T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
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
  await until(async () => ((await job(id)).status === 'running' ? true : undefined), 30_000);
  await startWorker('B');
  const exited = new Promise((r) => a.once('exit', r));
  a.kill('SIGKILL');
  await exited;
  const killedAt = Date.now();
  await lock.commit();
  const taken = await until(async () => {
    const j = await job(id);
    return j.attempts >= 2 ? Date.now() : undefined;
  }, 120_000);
  const done = await until(async () => {
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
  for (const c of children) c.kill('SIGKILL');
  await close();
  await rm(blobDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
