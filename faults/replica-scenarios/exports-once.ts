/**
 * Replicas scenario `exports-once`: exports requested through either gateway are each produced
 * exactly once by one of the two collection workers, even when their job is delivered again
 * (they share the RabbitMQ queue, and the job's row decides: the lease while it runs, its final
 * status after). Once every job is `completed`, each job's message is published a second time;
 * when the queue has drained, every job still has one attempt, and the workers' logs hold
 * exactly one owned `export completed` line per job between them. Each file, written to the
 * shared S3 bucket by whichever worker ran it, downloads through the other gateway.
 */
import { readFileSync } from 'node:fs';
import { Exchanges, envelope } from '@fieldhouse/contracts';
import { Broker } from '@fieldhouse/messaging';
import { testLogger } from '@fieldhouse/testkit';
import { EXPORT_QUEUE, EXPORT_REQUESTED } from '../../services/collection/src/workers/exports.ts';
import { requestExport, waitExportFinal } from '../lib/probes.ts';
import { queueDrained } from '../lib/rabbit.ts';
import { submissionBody } from '../lib/fixtures.ts';
import { count, gatewayClients, tally } from '../lib/replicas.ts';
import type { Scenario } from '../lib/scenario.ts';

const EXPORTS = 8;
const ROWS = 200;

export const exportsOnce: Scenario = {
  name: 'exports-once',
  title: 'each export requested on either gateway is produced by one worker, exactly once',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const gateways = gatewayClients(stack, fx.user.token);
    for (let start = 0; start < ROWS; start += 50) {
      await fx.api.expect(200, 'POST', '/api/v1/sync', {
        device_id: `exports-${fx.runId}`,
        submissions: Array.from({ length: 50 }, (_, k) => ({
          ...submissionBody(fx.form, `${fx.runId}-export-${start + k}`),
          local_id: `${fx.runId}-export-${start + k}`,
          client_updated_at: new Date().toISOString(),
        })),
      });
    }
    // Each job requested on one gateway, watched and downloaded through the other.
    const jobs: Array<{ id: string; via: number }> = [];
    for (let i = 0; i < EXPORTS; i++) {
      const via = i % gateways.length;
      jobs.push({ id: await requestExport({ ...ctx, api: gateways[via]!.api }, fx.form.projectId), via });
    }
    const other = (j: { via: number }) => gateways[(j.via + 1) % gateways.length]!;
    const finals = await Promise.all(
      jobs.map((j) => waitExportFinal({ ...ctx, api: other(j).api }, j.id, 120_000)),
    );
    const ends = new Map<string, number>();
    for (const f of finals) count(ends, f.final ? f.status : `not final (${f.status})`);
    report.check(
      ends.get('completed') === EXPORTS,
      `${EXPORTS} exports, requested on both gateways in turn: ${tally(ends)}`,
    );

    // A duplicate delivery of every job (as after a relay's crash before its confirm): the
    // worker that takes it finds the job finished and does nothing.
    const broker = new Broker({
      url: stack.amqpUrl,
      logger: testLogger('exports-once'),
      name: 'exports-once',
    });
    try {
      for (const j of jobs)
        await broker.publish(
          Exchanges.collection,
          envelope(Exchanges.collection, EXPORT_REQUESTED, { export_id: j.id }),
        );
    } finally {
      await broker.close();
    }
    const drained = await queueDrained(stack.vhost, EXPORT_QUEUE, 30_000);
    report.check(drained, `${EXPORTS} duplicate deliveries published and consumed by the workers`);

    const rows = (await ctx.stores
      .collection('exports')
      .whereIn(
        'id',
        jobs.map((j) => j.id),
      )
      .select('id', 'attempts', 'rows_written')) as Array<{
      id: string;
      attempts: number;
      rows_written: number;
    }>;
    const attempts = new Map<string, number>();
    for (const r of rows) count(attempts, `${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`);
    report.check(
      rows.length === EXPORTS && rows.every((r) => r.attempts === 1),
      `every job claimed once (rows of exports: ${tally(attempts)})`,
    );

    const byWorker = new Map<string, number>();
    const perJob = new Map<string, number>();
    for (const worker of stack.namesOf('collection-worker')) {
      const lines = readFileSync(stack.logFile(worker), 'utf8').split('\n');
      for (const j of jobs) {
        const n = lines.filter(
          (l) => l.includes('export completed') && l.includes(j.id) && l.includes('"owned":true'),
        ).length;
        if (n) {
          perJob.set(j.id, (perJob.get(j.id) ?? 0) + n);
          byWorker.set(worker, (byWorker.get(worker) ?? 0) + n);
        }
      }
    }
    report.check(
      jobs.every((j) => perJob.get(j.id) === 1),
      `one owned "export completed" per job across the workers, duplicates included (produced by ${tally(byWorker)})`,
    );

    const downloads = new Map<string, number>();
    for (const j of jobs) {
      const a = await other(j).api.get(`/api/v1/exports/${j.id}/download`);
      const location = a.headers.location;
      if (a.status !== 302 || !location) {
        count(downloads, `${a.status} without a redirect`);
        continue;
      }
      const file = await fetch(location);
      const text = await file.text();
      const lines = text.trim().split('\n').length;
      count(downloads, file.ok && lines >= ROWS + 1 ? 'csv ok' : `${file.status}, ${lines} lines`);
    }
    report.check(
      downloads.get('csv ok') === EXPORTS,
      `downloads through the other gateway (302 to the bucket, then the file): ${tally(downloads)}`,
    );
    for (const g of gateways) g.api.close();
  },
};
