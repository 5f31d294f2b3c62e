import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { dropDatabase, ensureDatabase } from '@fieldhouse/db';
import { eventually } from '@fieldhouse/testkit';
import { ensureFerretDb, mongoLiveness, startFerretDbProcess } from '../lib/ferretdb.ts';
import { freePort, waitForPort } from '../lib/net.ts';
import { Supervisor } from '../lib/processes.ts';

const root = new URL('../..', import.meta.url).pathname;

describe('scripts: the embedded store under its supervisor (FerretDB on PostgreSQL, real processes)', function () {
  this.timeout(90_000);
  let supervisor: Supervisor | undefined;
  let client: MongoClient | undefined;
  const database = Object.assign(new URL(process.env.POSTGRES_URL!), {
    pathname: `/ferretdb_liveness_${randomBytes(4).toString('hex')}`,
  }).toString();

  after(async () => {
    await client?.close();
    await supervisor?.stop(2_000);
    await dropDatabase(database);
  });

  it('restarts a FerretDB that runs but whose data operations hang (SIGSTOP), and keeps its data', async () => {
    await ensureDatabase(database);
    const port = await freePort();
    const bin = ensureFerretDb(root);
    const url = `mongodb://127.0.0.1:${port}`;
    const lines: string[] = [];
    supervisor = new Supervisor(
      'ferretdb',
      () => startFerretDbProcess(bin, { handler: 'postgresql', postgresUrl: database }, port, root),
      {
        initialDelayMs: 100,
        log: (line) => lines.push(line),
        liveness: { ...mongoLiveness(url, 500), intervalMs: 250, unresponsiveAfterMs: 2_000 },
      },
    );
    await waitForPort(port, 20_000);
    client = new MongoClient(url, { serverSelectionTimeoutMS: 20_000 });
    const votes = client.db('liveness_test').collection<{ _id: string; n: number }>('votes');
    await votes.insertOne({ _id: 'before', n: 1 });
    await eventually(async () => supervisor!.answering, 10_000); // started: past its startup grace
    const first = supervisor.process.child;
    first.kill('SIGSTOP'); // alive to the kernel, deaf to every client
    await eventually(async () => supervisor!.restarts.length === 1, 15_000);
    expect(supervisor.restarts[0]!.killedBecause).to.match(
      /^a write and a read with a deadline failed for [\d.]+ s/,
    );
    expect(supervisor.restarts[0]!.status.signal).to.equal('SIGKILL');
    expect(lines[0]).to.contain('ferretdb is running but unresponsive');
    await eventually(async () => supervisor!.process.child !== first, 20_000);
    // The data lives in PostgreSQL: the new process serves what the old one stored.
    await eventually(async () => (await votes.findOne({ _id: 'before' }).catch(() => null))?.n === 1, 20_000);
    await votes.insertOne({ _id: 'after', n: 2 });
    expect(await votes.countDocuments()).to.equal(2);
  });
});
