import { readFileSync } from 'node:fs';
import { sleep } from '@fieldhouse/testkit';

/** Busy and total CPU time of the whole machine so far (`/proc/stat` jiffies), or null off Linux. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine's CPUs were at least `idleShare` idle over one `sampleMs` sample, at
 * most `maxMs` (ms): what the previous step left running (a store's checkpoint, processes
 * shutting down, the test shards before the suite) drains before a scenario whose bars are
 * latencies measures anything. Resolves with what it saw, to print. Off Linux it does not wait.
 */
export async function waitForQuietCpu(
  opts: { idleShare?: number; sampleMs?: number; maxMs?: number } = {},
): Promise<{ idle: number; waitedMs: number; quiet: boolean } | null> {
  const { idleShare = 0.7, sampleMs = 2_000, maxMs = 20_000 } = opts;
  const t0 = performance.now();
  for (;;) {
    const a = cpuTimes();
    if (!a) return null;
    await sleep(sampleMs);
    const b = cpuTimes()!;
    const total = b.total - a.total;
    const idle = total > 0 ? 1 - (b.busy - a.busy) / total : 1;
    const waitedMs = performance.now() - t0;
    if (idle >= idleShare || waitedMs >= maxMs) return { idle, waitedMs, quiet: idle >= idleShare };
  }
}
