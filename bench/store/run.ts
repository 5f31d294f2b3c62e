/**
 * `npm run bench:store [-- --seconds 10 --connections 32]`: the embedded store's two handlers
 * side by side (docs/benchmarks.md, "The embedded store"; docs/polls.md says which is the
 * default and why). For each of FerretDB's `sqlite` and `postgresql` handlers: a fresh
 * FerretDB on fresh storage, then `--connections` clients each inserting vote-sized documents
 * one at a time for `--seconds` (raw insert rate), then the same clients mixing reads,
 * `findOneAndUpdate`s and inserts on one collection (the polls service's write shapes). Prints
 * each figure (operations/s, p50 and p99 latency in ms, errors) and a PASS/FAIL line: PASS
 * when the default handler (`postgresql`) inserts at least as fast as `sqlite` and neither
 * had an error.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { dropDatabase, ensureDatabase } from '@fieldhouse/db';
import { ensureFerretDb, startFerretDbProcess, type FerretDbStorage } from '../../scripts/lib/ferretdb.ts';
import { LOCAL_BACKING } from '../../scripts/lib/backing.ts';
import { freePort, waitForPort } from '../../scripts/lib/net.ts';
import { stopAll } from '../../scripts/lib/processes.ts';
import { onCleanup, runBench } from '../lib/run.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const root = join(import.meta.dirname, '..', '..');

interface Figure {
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  firstError?: string;
}

/** Runs `op` from `connections` loops for `seconds`; latency percentiles in ms. */
async function measure(op: (i: number) => Promise<unknown>): Promise<Figure> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          await op(n++);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          firstError ??= String(err).slice(0, 160);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    ops: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

/** The two measurements on one FerretDB handler. */
async function benchHandler(handler: FerretDbStorage['handler']): Promise<{ insert: Figure; mixed: Figure }> {
  const bin = ensureFerretDb(root);
  const port = await freePort();
  let storage: FerretDbStorage;
  if (handler === 'postgresql') {
    const base = process.env.POSTGRES_URL ?? LOCAL_BACKING[0].url;
    const url = Object.assign(new URL(base), {
      pathname: `/bench_ferretdb_${randomBytes(4).toString('hex')}`,
    }).toString();
    await ensureDatabase(url);
    onCleanup('drop the FerretDB database', () => dropDatabase(url));
    storage = { handler, postgresUrl: url };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ferretdb-'));
    onCleanup('remove the SQLite files', async () => rmSync(dataDir, { recursive: true, force: true }));
    storage = { handler, dataDir };
  }
  const ferret = startFerretDbProcess(bin, storage, port, root);
  const stop = () => stopAll([ferret], 5_000);
  onCleanup(`stop FerretDB (${handler})`, stop);
  await waitForPort(port, 20_000);
  const client = new MongoClient(`mongodb://127.0.0.1:${port}`, { maxPoolSize: connections });
  try {
    const votes = client.db('bench_store').collection('votes');
    const counters = client.db('bench_store').collection<{ _id: string; n: number }>('counters');
    await votes.createIndex({ poll_id: 1, created_at: -1 });
    const vote = (i: number) => ({
      poll_id: `poll-${i % 10}`,
      voter_key: `${randomBytes(8).toString('hex')}`,
      choices: { s1: 'o1', s2: 'o2' },
      option_ids: ['o1', 'o2'],
      time_spent: i % 60,
      created_at: new Date(),
    });
    const insert = await measure((i) => votes.insertOne(vote(i)));
    const mixed = await measure(async (i) => {
      switch (i % 3) {
        case 0:
          return votes.insertOne(vote(i));
        case 1:
          return counters.findOneAndUpdate(
            { _id: `c${i % 50}` },
            { $inc: { n: 1 } },
            { upsert: true, returnDocument: 'after' },
          );
        default:
          return votes.findOne({ poll_id: `poll-${i % 10}` });
      }
    });
    return { insert, mixed };
  } finally {
    await client.close();
    await stop();
  }
}

await runBench(async () => {
  console.log(
    `bench:store: ${connections} clients, ${seconds} s per measurement, FerretDB handlers side by side`,
  );
  const results: Record<string, { insert: Figure; mixed: Figure }> = {};
  for (const handler of ['sqlite', 'postgresql'] as const) {
    results[handler] = await benchHandler(handler);
    for (const [what, f] of Object.entries(results[handler]!))
      console.log(
        `  ${handler.padEnd(10)} ${what.padEnd(6)} ${f.perSecond.toFixed(0).padStart(6)} ops/s  ` +
          `p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  errors ${f.errors}` +
          (f.firstError ? ` (${f.firstError})` : ''),
      );
  }
  const pg = results.postgresql!;
  const lite = results.sqlite!;
  const pass = pg.insert.perSecond >= lite.insert.perSecond && pg.insert.errors + pg.mixed.errors === 0;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: postgresql inserts ${pg.insert.perSecond.toFixed(0)}/s against sqlite's ` +
      `${lite.insert.perSecond.toFixed(0)}/s; errors ${pg.insert.errors + pg.mixed.errors} (postgresql), ` +
      `${lite.insert.errors + lite.mixed.errors} (sqlite)`,
  );
});
