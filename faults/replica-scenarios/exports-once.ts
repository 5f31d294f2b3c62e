/**
 * Replicas scenario `exports-once`: exports requested through either gateway are each produced
 * exactly once by one of the two collection workers (they share the RabbitMQ queue and the
 * lease on the job's row): every job ends `completed` with one attempt, and the workers' logs
 * hold exactly one `export completed` line per job between them. Each file, written to the
 * shared S3 bucket by whichever worker ran it, downloads through the other gateway.
 */
import { readFileSync } from 'node:fs';
import { sleep } from '@fieldhouse/testkit';
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
    const jobs: Array<{ id: string; via: number }> = [];
    for (let i = 0; i < EXPORTS; i++) {
      const via = i % gateways.length;
      const a = await gateways[via]!.api.post(`/api/v1/projects/${fx.form.projectId}/submissions/export`, {
        format: 'csv',
      });
      if (a.status !== 202)
        throw new Error(`export request on ${gateways[via]!.name}: ${a.status} ${a.text}`);
      jobs.push({ id: a.body.data.job_id as string, via });
    }
    // Each job watched and downloaded through the gateway it was not requested on.
    const deadline = performance.now() + 120_000;
    const finals = new Map<string, string>();
    while (finals.size < jobs.length && performance.now() < deadline) {
      for (const j of jobs) {
        if (finals.has(j.id)) continue;
        const other = gateways[(j.via + 1) % gateways.length]!;
        const a = await other.api.get(`/api/v1/exports/${j.id}`);
        const status = a.body?.data?.status as string | undefined;
        if (status === 'completed' || status === 'failed') finals.set(j.id, status);
      }
      await sleep(250);
    }
    const ends = new Map<string, number>();
    for (const j of jobs) count(ends, finals.get(j.id) ?? 'not final');
    report.check(
      ends.get('completed') === EXPORTS,
      `${EXPORTS} exports, requested on both gateways in turn: ${tally(ends)}`,
    );

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
        const n = lines.filter((l) => l.includes('export completed') && l.includes(j.id)).length;
        if (n) {
          perJob.set(j.id, (perJob.get(j.id) ?? 0) + n);
          byWorker.set(worker, (byWorker.get(worker) ?? 0) + n);
        }
      }
    }
    report.check(
      jobs.every((j) => perJob.get(j.id) === 1),
      `"export completed" logged once per job across the workers (produced by ${tally(byWorker)})`,
    );

    const downloads = new Map<string, number>();
    for (const j of jobs) {
      const other = gateways[(j.via + 1) % gateways.length]!;
      const a = await other.api.get(`/api/v1/exports/${j.id}/download`);
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
