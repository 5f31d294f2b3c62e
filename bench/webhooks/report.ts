/**
 * The figures of `npm run bench:webhooks`, from the receiver's records and the producer's
 * commit times: per phase, the deliveries whose first attempt arrived, their latency from the
 * commit of the invite's transaction to that first attempt, and the delivery rate; over the
 * whole run, requests received more than once (by `webhook-id`).
 */
import { percentile } from '../lib/percentile.ts';
import type { ReceiverResults } from './common.ts';
import { batchOf, type ProducedPhase } from './produce.ts';

export interface PhaseFigures {
  name: string;
  /** Events (invites) committed in the phase: one delivery each. */
  expected: number;
  /** Deliveries of the phase whose first attempt arrived. */
  delivered: number;
  /** Commit → first attempt, ms, sorted. */
  latencies: Float64Array;
  /** From the phase's first INSERT to its last first attempt, ms. */
  elapsedMs: number;
  /** Deliveries/s over {@link elapsedMs}. */
  rate: number;
  /** Deliveries/s between the 10th and the 90th percentile of the first-attempt arrivals. */
  steadyRate: number;
  /** First attempts per second in consecutive windows of `windowS` from the phase's start. */
  timeline: number[];
  /** The most events of the phase committed and not yet attempted at any moment. */
  maxBacklog: number;
}

/** The first attempt of every `webhook-id` (index into the records), and how many requests repeated one. */
export function firstAttempts(r: ReceiverResults): { first: number[]; duplicates: number } {
  const seen = new Set<string>();
  const first: number[] = [];
  for (let i = 0; i < r.ids.length; i++) {
    if (seen.has(r.ids[i]!)) continue;
    seen.add(r.ids[i]!);
    first.push(i);
  }
  return { first, duplicates: r.ids.length - first.length };
}

/** The figures of one phase (its batches), from the first attempts and the commit times. */
export function phaseFigures(
  name: string,
  phase: ProducedPhase,
  r: ReceiverResults,
  first: number[],
  batches: { committedAt: number[]; rows: number[] },
  windowS = 5,
): PhaseFigures {
  const { committedAt } = batches;
  const [lo, hi] = phase.batches;
  const latencies: number[] = [];
  const arrivals: number[] = [];
  for (const i of first) {
    const batch = batchOf(r.noms[i]!);
    if (batch === undefined || batch < lo || batch >= hi) continue;
    latencies.push(r.at[i]! - committedAt[batch]!);
    arrivals.push(r.at[i]!);
  }
  arrivals.sort((a, b) => a - b);
  const n = arrivals.length;
  const elapsedMs = n ? arrivals[n - 1]! - phase.startedAt : NaN;
  const [t10, t90] = [arrivals[Math.floor(n * 0.1)], arrivals[Math.floor(n * 0.9)]];
  const timeline: number[] = [];
  for (const at of arrivals) {
    const w = Math.floor((at - phase.startedAt) / 1000 / windowS);
    while (timeline.length <= w) timeline.push(0);
    timeline[w]!++;
  }
  const steps: Array<[number, number]> = arrivals.map((at) => [at, -1]);
  for (let b = lo; b < hi; b++) steps.push([committedAt[b]!, batches.rows[b]!]);
  steps.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let backlog = 0;
  let maxBacklog = 0;
  for (const [, d] of steps) maxBacklog = Math.max(maxBacklog, (backlog += d));
  return {
    name,
    maxBacklog,
    expected: phase.events,
    delivered: n,
    latencies: Float64Array.from(latencies).sort(),
    elapsedMs,
    rate: (n * 1000) / elapsedMs,
    steadyRate: t10 !== undefined && t90 !== undefined && t90 > t10 ? (0.8 * n * 1000) / (t90 - t10) : NaN,
    timeline: timeline.map((c) => c / windowS),
  };
}

const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`);

/** Prints a phase's figures. */
export function printPhase(f: PhaseFigures, phase: ProducedPhase): void {
  const l = f.latencies;
  console.log(`${f.name}:`);
  console.log(
    `  events committed: ${f.expected} in ${(phase.elapsedMs / 1000).toFixed(1)} s ` +
      `(${((f.expected * 1000) / phase.elapsedMs).toFixed(0)}/s)` +
      (phase.maxLagMs ? `, a batch at most ${ms(phase.maxLagMs)} behind schedule` : ''),
  );
  console.log(
    `  deliveries (first attempts): ${f.delivered} of ${f.expected} in ${(f.elapsedMs / 1000).toFixed(1)} s: ` +
      `${f.rate.toFixed(0)}/s overall, ${f.steadyRate.toFixed(0)}/s steady (10th to 90th percentile of arrivals)`,
  );
  console.log(
    `  commit -> first attempt: p50 ${ms(percentile(l, 50))}, p95 ${ms(percentile(l, 95))}, ` +
      `p99 ${ms(percentile(l, 99))}, max ${ms(l[l.length - 1] ?? NaN)}`,
  );
  console.log(
    `  first attempts/s per 5 s: ${f.timeline.map((v) => v.toFixed(0)).join(' ')}; ` +
      `largest backlog (committed, not yet attempted): ${f.maxBacklog} events`,
  );
}
