/**
 * Functional probes of the workers, for recovery times: each starts a piece of work only that
 * worker finishes, and resolves when it is finished (or rejects after `timeoutMs`).
 * - collection-worker: an export of the fixtures' form reaches `completed`;
 * - events-worker: an invitation e-mail reaches the SMTP sink;
 * - polls-worker: a one-time-password e-mail of a vote on the OTP poll reaches the SMTP sink.
 */
import type { WorkerName } from './stack.ts';
import type { ScenarioContext } from './scenario.ts';
import { deliveriesTo } from './mail.ts';
import { sleep } from '@fieldhouse/testkit';

let probeCount = 0;

/**
 * Polls export job `jobId` (every 100 ms) until it is final, `stopAt` says so for its status,
 * or `timeoutMs` passed; resolves with its last status. `onStatus` sees every status read.
 */
export async function waitExportFinal(
  ctx: ScenarioContext,
  jobId: string,
  timeoutMs: number,
  onStatus?: (status: string) => void,
  stopAt?: (status: string) => boolean,
): Promise<{ status: string; final: boolean }> {
  const deadline = performance.now() + timeoutMs;
  let status = 'unknown';
  for (;;) {
    const res = await ctx.api.get(`/api/v1/exports/${jobId}`);
    if (res.status === 200) {
      status = res.body.data.status as string;
      onStatus?.(status);
      if (status === 'completed' || status === 'failed') return { status, final: true };
      if (stopAt?.(status)) return { status, final: false };
    }
    if (performance.now() > deadline) return { status, final: false };
    await sleep(stopAt ? 20 : 100);
  }
}

/** Requests a CSV export of project `projectId`; resolves with its job id. */
export async function requestExport(ctx: ScenarioContext, projectId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await ctx.api.post(`/api/v1/projects/${projectId}/submissions/export`, { format: 'csv' });
    if (res.status === 202) return res.body.data.job_id as string;
    if (attempt >= 50) throw new Error(`export request: ${res.status} ${res.text.slice(0, 200)}`);
    await sleep(200);
  }
}

/** Resolves when `address` has received at least one message. */
async function waitDelivered(ctx: ScenarioContext, address: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!((await deliveriesTo(ctx.stack.mailApiUrl, [address])).get(address) ?? 0)) {
    if (performance.now() > deadline) throw new Error(`no e-mail to ${address} within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** Starts the probe of `worker` and resolves when it succeeded. */
export async function probeWorker(
  ctx: ScenarioContext,
  worker: WorkerName,
  timeoutMs: number,
): Promise<void> {
  const n = probeCount++;
  const deadline = performance.now() + timeoutMs;
  const left = () => Math.max(0, deadline - performance.now());
  if (worker === 'collection-worker') {
    const job = await requestExport(ctx, ctx.fx.form.projectId);
    const r = await waitExportFinal(ctx, job, left());
    if (r.status !== 'completed') throw new Error(`probe export ended ${r.status}`);
  } else if (worker === 'events-worker') {
    const address = `probe-${ctx.fx.runId}-${n}@example.test`;
    for (;;) {
      const res = await ctx.api.post(`/api/events/${ctx.fx.event.id}/invites`, {
        nom: `Probe ${n}`,
        email: address,
        type_invite: 'standard',
      });
      if (res.status === 201) break;
      if (left() === 0) throw new Error(`probe invite: ${res.status}`);
      await sleep(200);
    }
    await waitDelivered(ctx, address, left());
  } else {
    const address = `otp-${ctx.fx.runId}-${n}@example.test`;
    const poll = (await ctx.anonymous.get(`/api/polls/${ctx.fx.otpPollId}`)).body?.data as
      { sections: Array<{ id: string; options: Array<{ id: string }> }> } | undefined;
    if (!poll) throw new Error('probe: OTP poll unreadable');
    for (;;) {
      const res = await ctx.anonymous.post(`/api/polls/${ctx.fx.otpPollId}/vote`, {
        votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[0]!.id])),
        voter_fingerprint: `otp-probe-${ctx.fx.runId}-${n}`,
        voter_email: address,
      });
      if (res.status === 202) break;
      if (left() === 0) throw new Error(`probe OTP vote: ${res.status} ${res.text.slice(0, 200)}`);
      await sleep(200);
    }
    await waitDelivered(ctx, address, left());
  }
}
