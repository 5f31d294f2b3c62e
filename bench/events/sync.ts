import { writeFileSync } from 'node:fs';
import { load, percentile, stopLoad } from '../lib/load.ts';
import { printCpuTable } from '../lib/child.ts';
import { checkExact, setUpDevice, type EventsBenchStack } from './stack.ts';

/** Pull latency (one `GET .../checkin/changes` through the gateway) a scanner may wait at p99. */
const TARGET_PULL_P99_MS = 1_000;
/** How often each device pulls, as the console does (every 3 s) at most: the issue's "every 5 s". */
const PULL_EVERY_MS = 5_000;

interface OfflineInvitee {
  id: string;
  status: string;
}

/**
 * `sync` (issue 36): `devices` scanner devices (default 100) keep the offline copy of the event
 * while every one of its invites is checked in on the hot path (the owner, 32 connections, each
 * code once). One device downloads the list through the gateway (`GET .../checkin/snapshot`,
 * pages of 5,000: timed); the others start from that copy and its cursor (they downloaded before
 * the doors opened). Each device then pulls `GET .../checkin/changes` every 5 s (staggered over
 * the 5 s, pages until `more` is false) until the check-ins are done, then once more, all at once
 * (to compare the copies; that last round's latency is printed apart, not in the bar). Prints the
 * check-ins/s while syncing, the latency of the pulls made while checking in (p50, p99, worst),
 * rows per pull, CPU per check-in, and PASS/FAIL: every device's copy says exactly what the statistics say (present =
 * checked in), the statistics are exact, and a pull's p99 <= 1 s. With BENCH_SYNC_TRACE=<file>,
 * every pull (start in ms, device, latency in ms, rows) is written there as CSV.
 */
export async function syncDevices(stack: EventsBenchStack, opts: { devices: number }): Promise<void> {
  const credentials = await Promise.all(
    Array.from({ length: opts.devices }, (_, i) => setUpDevice(stack, `Bench sync ${i + 1}`)),
  );
  const base = `${stack.gatewayUrl}/api/events/${stack.eventId}/checkin`;
  const get = async (credential: string, path: string) => {
    const res = await fetch(`${base}/${path}`, { headers: { authorization: `Bearer ${credential}` } });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };

  // The download, once, timed; its copy is every device's starting point.
  const index = new Map<string, number>();
  const t0 = performance.now();
  let page: string | null = null;
  let cursor = '';
  const first: number[] = [];
  for (;;) {
    const body = (await get(credentials[0]!, `snapshot?limit=5000${page ? `&page=${page}` : ''}`)) as {
      invitees: OfflineInvitee[];
      next_page: string | null;
      cursor: string | null;
    };
    for (const i of body.invitees) {
      index.set(i.id, index.size);
      first.push(i.status === 'checked_in' ? 1 : 0);
    }
    if (!body.next_page) {
      cursor = body.cursor!;
      break;
    }
    page = body.next_page;
  }
  const downloadMs = performance.now() - t0;
  console.log(
    `download of ${index.size} invitees through the gateway (one device): ${(downloadMs / 1000).toFixed(1)} s`,
  );
  const copies = credentials.map(() => ({ status: Uint8Array.from(first), cursor }));

  const latencies: number[] = [];
  const rows: number[] = [];
  /** Each pull (ms since the bench's start, device, latency ms, rows), written to BENCH_SYNC_TRACE if set. */
  const trace: Array<[number, number, number, number]> = [];
  let pulling = true;
  const pullOnce = async (d: number) => {
    const copy = copies[d]!;
    for (;;) {
      const p0 = performance.now();
      const body = (await get(credentials[d]!, `changes?cursor=${copy.cursor}`)) as {
        changes: OfflineInvitee[];
        cursor: string;
        more: boolean;
      };
      latencies.push(performance.now() - p0);
      rows.push(body.changes.length);
      trace.push([Math.round(p0), d, Math.round(performance.now() - p0), body.changes.length]);
      for (const c of body.changes) {
        const at = index.get(c.id);
        if (at !== undefined) copy.status[at] = c.status === 'checked_in' ? 1 : 0;
      }
      copy.cursor = body.cursor;
      if (!body.more) return;
    }
  };
  const devices = credentials.map(async (_, d) => {
    await new Promise((r) => setTimeout(r, (d * PULL_EVERY_MS) / credentials.length));
    while (pulling) {
      const started = performance.now();
      await pullOnce(d);
      const wait = PULL_EVERY_MS - (performance.now() - started);
      if (pulling && wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  });

  console.log(
    `measuring: ${stack.codes.length} check-ins (hot path, 32 connections) while ${opts.devices} devices pull every 5 s`,
  );
  const meter = stack.meter();
  const n = stack.codes.length;
  const m = await load({
    url: `${base}`,
    connections: 32,
    duration: 900,
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    bodies: (i) => {
      if (i === n) setImmediate(stopLoad);
      return JSON.stringify({ code_unique: stack.codes[i % n], device: 'bench' });
    },
  });
  const cpu = meter.perRequest(m.ok);
  pulling = false;
  await Promise.all(devices);
  const during = latencies.length;
  await Promise.all(credentials.map((_, d) => pullOnce(d)));
  stack.assertRunning();

  if (process.env.BENCH_SYNC_TRACE)
    writeFileSync(
      process.env.BENCH_SYNC_TRACE,
      ['at_ms,device,latency_ms,rows', ...trace.map((t) => t.join(','))].join('\n'),
    );
  const { exact, stats } = await checkExact(stack, m.ok, Math.min(m.sent, n));
  const inCopies = copies.map((c) => c.status.reduce((a, b) => a + b, 0));
  const copiesExact = inCopies.every((x) => x === stats.present);
  // The bar is on the pulls made every 5 s while checking in; the last round, every device at
  // once after the check-ins (to compare the copies), is a burst of its own, shown apart.
  const sorted = latencies.slice(0, during).sort((a, b) => a - b);
  const last = latencies.slice(during).sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  console.log('');
  console.log(
    `check-ins while syncing: ${m.rps.toFixed(1)}/s   p50 ${m.p50.toFixed(2)} ms   p99 ${m.p99.toFixed(2)} ms   checked in: ${m.ok}`,
  );
  console.log(
    `GET .../checkin/changes through the gateway, ${opts.devices} devices: ${during} pulls while checking in, ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   worst ${(sorted.at(-1) ?? NaN).toFixed(1)} ms; ` +
      `rows a pull: mean ${(rows.reduce((a, b) => a + b, 0) / Math.max(1, rows.length)).toFixed(0)}, most ${Math.max(...rows)}`,
  );
  console.log(
    `last round, all ${opts.devices} devices at once after the check-ins: ${last.length} pulls, ` +
      `p50 ${percentile(last, 50).toFixed(1)} ms   worst ${(last.at(-1) ?? NaN).toFixed(1)} ms (not in the bar)`,
  );
  console.log(
    `devices' copies: checked in ${Math.min(...inCopies)} to ${Math.max(...inCopies)} (statistics: ${stats.present})`,
  );
  printCpuTable([['check-in (while syncing)', cpu]]);
  const lines: Array<[string, boolean]> = [
    ['stats exact:', exact],
    ['every copy exact:', copiesExact],
    [`pull p99 <= ${TARGET_PULL_P99_MS} ms:`, p99 <= TARGET_PULL_P99_MS],
  ];
  for (const [label, ok] of lines) console.log(`${label.padEnd(29)}${ok ? 'PASS' : 'FAIL'}`);
  console.log(`overall: ${lines.every(([, ok]) => ok) ? 'PASS' : 'FAIL'}`);
  if (!exact || !copiesExact) throw new Error('a copy or the statistics are not exact');
}
