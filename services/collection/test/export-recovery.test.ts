import type { Readable } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import JSZip from 'jszip';
import { Exchanges, envelope } from '@fieldhouse/contracts';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import {
  backingUrl,
  eventually,
  PNG,
  randomPrefix,
  startNodeProcess,
  testLogger,
  type TestProcess,
} from '@fieldhouse/testkit';
import { FileBlobStore, type BlobStore } from '../src/blob/blob-store.ts';
import { loadCollectionConfig } from '../src/config.ts';
import { EXPORT_REQUESTED } from '../src/domain/exports.ts';
import {
  EXPORT_DEAD_LETTERS,
  queueExport,
  startExportWorker,
  type ExportSettings,
} from '../src/workers/exports.ts';
import { body, cast, makeForm, startHarness, type Form, type Harness } from './harness.ts';

const workerMain = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'workers', 'main.ts');

/**
 * Recovery of export jobs (issue 14, item 4; docs/reliability.md, "Exports"): a worker killed
 * mid-export, a dead-lettered job, a job that keeps killing its worker. Short intervals: a 1 s
 * lease renewed every 200 ms.
 */
describe('collection: export recovery (lease, killed worker process, dead letters)', function () {
  // A worker process started (up to 20 s under load) and a lease to lapse: past mocha's 30 s.
  this.timeout(120_000);
  const { alice } = cast; // owns the workspace and requests the exports
  const logger = testLogger('collection-export-recovery');
  const settings: ExportSettings = {
    ttlHours: 1,
    leaseMs: 1_000,
    heartbeatMs: 200,
    publicUrl: 'https://fieldhouse.example.org',
  };
  // The worker process's own retry queues (1 s, 5 s, 30 s: 4 attempts) are shared by every worker here.
  let h: Harness;
  let form: Form;
  let amqpUrl: string;
  let prefix: string;
  let broker: Broker;
  let relay: OutboxRelay;
  let worker: { close: () => Promise<void> } | undefined;
  let workerProcess: TestProcess | undefined;

  before(async () => {
    h = await startHarness();
    amqpUrl = await backingUrl('amqp');
    prefix = randomPrefix('coll-rec');
    broker = new Broker({ url: amqpUrl, logger, name: 'collection-export-recovery-test', prefix });
    relay = new OutboxRelay({ knex: h.db, table: 'outbox', broker, logger });
    form = await makeForm(h, alice);
    for (const name of ['Ann', 'Bob', 'Cy']) {
      await h
        .as(alice)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .send(body(form, { full_name: name }))
        .expect(201);
    }
  });
  afterEach(async () => {
    workerProcess?.child.kill('SIGKILL');
    workerProcess = undefined;
    await worker?.close();
    worker = undefined;
  });
  after(async () => {
    await relay?.stop();
    await broker?.close();
    await h?.close();
  });

  const startWorker = async (blobs: BlobStore = new FileBlobStore(h.blobDir)) =>
    (worker = await startExportWorker({
      broker,
      db: h.db,
      blobs,
      logger,
      settings,
    }));
  const requestExport = async () =>
    (
      await h
        .as(alice)
        .post(`/api/v1/projects/${form.projectId}/submissions/export`)
        .send({ format: 'csv' })
        .expect(202)
    ).body.data.job_id as string;
  const finalState = (jobId: string, timeoutMs?: number) =>
    eventually(async () => {
      const s = await h.as(alice).get(`/api/v1/exports/${jobId}`).expect(200);
      return ['completed', 'failed'].includes(s.body.data.status) ? s.body.data : null;
    }, timeoutMs);
  const mailsAbout = async (jobId: string, reason: string) =>
    (await h.db('outbox').select('message')).filter(
      (r) => r.message.data.reason === reason && String(r.message.data.text).includes(jobId),
    );

  it('keeps its promise in the defaults: lease + sweep interval well inside 60 s, sweep at most 30 s', () => {
    const config = loadCollectionConfig({});
    expect(config.EXPORT_SWEEP_SECONDS).to.be.at.most(30);
    expect(config.EXPORT_LEASE_SECONDS + config.EXPORT_SWEEP_SECONDS).to.be.at.most(30);
    expect(() => loadCollectionConfig({ EXPORT_SWEEP_SECONDS: '300' })).to.throw(/EXPORT_SWEEP_SECONDS/);
  });

  it('completes an export whose worker process was killed mid-job, once its lease lapses, with nobody touching the row', async () => {
    // The real worker process (workers/main.ts), 1 s lease, held mid-export by a table lock.
    const locker = await h.db.transaction();
    try {
      await locker.raw('LOCK TABLE submissions IN ACCESS EXCLUSIVE MODE');
      workerProcess = startNodeProcess(workerMain, {
        DATABASE_URL: h.databaseUrl,
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        BLOB_DIR: h.blobDir,
        EXPORT_LEASE_SECONDS: '1',
        EXPORT_SWEEP_SECONDS: '1',
        LOG_LEVEL: 'info',
      });
      const started = workerProcess;
      await eventually(async () => started.output().includes('collection worker started'), 20_000).catch(
        () => {
          throw new Error(`the worker process did not start:\n${started.output()}`);
        },
      );
      const jobId = await requestExport();
      await relay.drain();
      const running = await eventually(async () => {
        const row = await h.db('exports').where({ id: jobId }).first();
        return row.status === 'running' ? row : null;
      });
      expect(running.attempts).to.equal(1);
      // A second worker is up; then the first one dies (SIGKILL: no cleanup, no ack).
      await startWorker();
      const killed = new Promise((ok) => started.child.once('exit', ok));
      started.child.kill('SIGKILL');
      await killed;
      workerProcess = undefined;
      const killedAt = Date.now();
      await locker.commit();
      // Lease (1 s) + the redelivery, with a limit for a busy machine (three test shards at once).
      const done = await finalState(jobId, 30_000);
      expect(done).to.include({ status: 'completed', rows_written: 3, error: null });
      const row = await h.db('exports').where({ id: jobId }).first();
      expect(row.attempts).to.equal(2);
      console.log(
        `      killed worker: job completed ${Date.now() - killedAt} ms after the kill (lease 1 s)`,
      );
    } finally {
      if (!locker.isCompleted()) await locker.rollback();
    }
  });

  it('completes a media zip whose worker process was killed mid-zip (CSV entry written, photos under way), once its lease lapses', async () => {
    // Own project: 5 submissions with a photo each.
    const f = await makeForm(h, alice);
    for (let i = 0; i < 5; i++)
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/submissions`)
        .send(body(f, { full_name: `Site ${i}`, picture: PNG.toString('base64') }))
        .expect(201);
    // The photos table locked: the worker writes the zip's CSV entry, then waits on its media query.
    const locker = await h.db.transaction();
    try {
      await locker.raw('LOCK TABLE photos IN ACCESS EXCLUSIVE MODE');
      workerProcess = startNodeProcess(workerMain, {
        DATABASE_URL: h.databaseUrl,
        AMQP_URL: amqpUrl,
        AMQP_PREFIX: prefix,
        BLOB_DIR: h.blobDir,
        EXPORT_LEASE_SECONDS: '1',
        EXPORT_SWEEP_SECONDS: '1',
        LOG_LEVEL: 'info',
      });
      const started = workerProcess;
      await eventually(async () => started.output().includes('collection worker started'), 20_000).catch(
        () => {
          throw new Error(`the worker process did not start:\n${started.output()}`);
        },
      );
      const jobId = (
        await h
          .as(alice)
          .post(`/api/v1/projects/${f.projectId}/submissions/export`)
          .send({ format: 'zip' })
          .expect(202)
      ).body.data.job_id as string;
      await relay.drain();
      // Mid-zip: the media query (after the CSV entry) waits for the lock.
      await eventually(async () => {
        const { rows } = await h.db.raw(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%JOIN photos p ON%'`,
        );
        return rows.length > 0;
      });
      expect((await h.db('exports').where({ id: jobId }).first()).status).to.equal('running');
      await startWorker();
      const killed = new Promise((ok) => started.child.once('exit', ok));
      started.child.kill('SIGKILL');
      await killed;
      workerProcess = undefined;
      await locker.commit();
      const done = await finalState(jobId, 30_000);
      expect(done).to.include({ status: 'completed', rows_written: 5, error: null });
      expect((await h.db('exports').where({ id: jobId }).first()).attempts).to.equal(2);
      const file = await h
        .as(alice)
        .get(`/api/v1/exports/${jobId}/download`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const zip = await JSZip.loadAsync(file.body as Buffer);
      expect(Object.keys(zip.files).filter((k) => k.startsWith('media/'))).to.have.length(5);
    } finally {
      if (!locker.isCompleted()) await locker.rollback();
    }
  });

  it('fails a dead-lettered job no live worker holds, telling its requester the reason', async () => {
    await startWorker();
    const queued = await requestExport();
    const abandoned = await requestExport();
    const live = await requestExport();
    await h.db('outbox').delete(); // their messages were lost: only the dead letters remain
    await h
      .db('exports')
      .where({ id: abandoned })
      .update({ status: 'running', attempts: 1, lease_until: new Date(Date.now() - 5_000) });
    await h
      .db('exports')
      .where({ id: live })
      .update({ status: 'running', attempts: 1, lease_until: new Date(Date.now() + 60_000) });
    for (const id of [queued, abandoned, live])
      await broker.sendToQueue(
        broker.name(EXPORT_DEAD_LETTERS),
        Buffer.from(JSON.stringify(envelope(Exchanges.collection, EXPORT_REQUESTED, { export_id: id }))),
        { headers: { 'x-error': 'the database was away', 'x-attempt': 3 } },
      );
    for (const id of [queued, abandoned]) {
      const done = await finalState(id);
      expect(done.status, id).to.equal('failed');
      expect(done.error).to.contain('the database was away');
      expect(done.finished_at).to.be.a('string');
      expect(await mailsAbout(id, 'export-failed')).to.have.length(1);
    }
    // A job a live worker still holds is left to it (it ends the job itself).
    expect((await h.db('exports').where({ id: live }).first()).status).to.equal('running');
  });

  it('fails a job that stopped its worker on every attempt, telling its requester, instead of starting it again', async () => {
    await startWorker();
    const jobId = await requestExport();
    await h.db('outbox').delete();
    // Four attempts (1 + three retries) each claimed and abandoned: the worker died each time.
    await h
      .db('exports')
      .where({ id: jobId })
      .update({ status: 'running', attempts: 4, lease_until: new Date(Date.now() - 1_000) });
    await h.db.transaction((trx) => queueExport(trx, jobId));
    await relay.drain();
    const done = await finalState(jobId);
    expect(done.status).to.equal('failed');
    expect(done.error).to.match(/4 attempts/);
    expect((await h.db('exports').where({ id: jobId }).first()).attempts).to.equal(4);
    expect(await mailsAbout(jobId, 'export-failed')).to.have.length(1);
  });

  it('gives up a job whose lease it lost, leaving it untouched to the worker that took it over', async () => {
    // The first file write never ends (a stalled disk): the worker holds the job and renews.
    let stall = true;
    let writing!: () => void;
    const started = new Promise<void>((ok) => (writing = ok));
    const files = new FileBlobStore(h.blobDir);
    const stalling: BlobStore = Object.assign(Object.create(files) as BlobStore, {
      putStream: (key: string, source: Readable) => {
        if (!stall) return files.putStream(key, source);
        stall = false;
        writing();
        return new Promise<number>(() => undefined);
      },
    });
    await startWorker(stalling);
    const first = await requestExport();
    await relay.drain();
    await started;
    // Its lease is taken over (what a second worker's claim does after a lapse).
    await h
      .db('exports')
      .where({ id: first })
      .update({ attempts: 2, lease_until: new Date(Date.now() + 60_000) });
    // The worker gives the job up and is free again (prefetch 1): the next export completes.
    const second = await requestExport();
    await relay.drain();
    expect((await finalState(second)).status).to.equal('completed');
    // The job is the other worker's, untouched: neither requeued nor failed by the first one.
    expect(await h.db('exports').where({ id: first }).first()).to.include({
      status: 'running',
      attempts: 2,
      error: null,
    });
  });
});
