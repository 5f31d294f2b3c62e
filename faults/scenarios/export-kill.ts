/**
 * Scenario 4: the collection worker SIGKILLed while it writes an export of FAULTS_EXPORT_ROWS
 * submissions, then started again at once (as a process manager would). Proves: the job
 * reaches a final state (completed, or failed with the requester told) within 60 s of the kill
 * and never stays `running`.
 */
import { createForm, submissionBody } from '../lib/fixtures.ts';
import { requestExport, waitExportFinal } from '../lib/probes.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';

export const exportKill: Scenario = {
  name: 'export-kill',
  title: 'export worker SIGKILLed mid-export: the job is final within 60 s, never left running',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const form = await createForm(fx.api, `Export ${fx.runId}`);
    const t0 = performance.now();
    for (let start = 0; start < settings.exportRows; start += 500) {
      const n = Math.min(500, settings.exportRows - start);
      const body = {
        device_id: `faults-${fx.runId}`,
        submissions: Array.from({ length: n }, (_, k) => ({
          ...submissionBody(form, `fx-${fx.runId}-e${start + k} ${'x'.repeat(200)}`),
          local_id: `e${start + k}`,
          client_updated_at: new Date().toISOString(),
        })),
      };
      const res = await fx.api.send('POST', '/api/v1/sync', body, {}, 120_000);
      if (res.status !== 200) throw new Error(`sync: ${res.status} ${res.text.slice(0, 200)}`);
    }
    report.info(`${settings.exportRows} submissions stored in ${secs(performance.now() - t0)}`);

    const job = await requestExport(ctx, form.projectId);
    const seen = await waitExportFinal(ctx, job, 30_000, undefined, (s) => s === 'running');
    if (seen.status !== 'running') {
      report.check(
        false,
        `the export was ${seen.status} before it could be killed running: raise FAULTS_EXPORT_ROWS`,
      );
      return;
    }
    const killedAt = performance.now();
    await stack.kill('collection-worker');
    stack.restart('collection-worker');
    report.info('collection-worker SIGKILLed while the export was running, started again at once');
    const statuses: string[] = [];
    const final = await waitExportFinal(ctx, job, settings.exportTargetMs + 10_000, (s) => {
      if (statuses.at(-1) !== s) statuses.push(s);
    });
    const took = performance.now() - killedAt;
    report.check(
      final.final && took <= settings.exportTargetMs,
      `export ${final.final ? final.status : `still ${final.status}`} ${secs(took)} after the kill ` +
        `(target ≤ ${secs(settings.exportTargetMs)}; statuses seen: ${statuses.join(' → ')})`,
    );
  },
};
