/**
 * `npm run bench:events`: check-ins through the gateway on an event of 50,000 invites, in one of
 * four modes (`--mode`):
 *
 * - `hot` (default): the owner scans without a nonce, the group-committed hot path; autocannon,
 *   every request a different code. Target: >= 1,500 check-ins/s, p99 <= 30 ms.
 * - `device`: scanner devices' scans, each with its nonce: the full path a door scanner takes
 *   (docs/events.md, "Scanner devices"), `--devices` devices (default 32, one per lane) in turn.
 *   With `--rate N` the load is open loop, a request every 1/N s (the capacity plan's peak is
 *   60/s, docs/scaling.md, "Plan 2"), else closed loop over `--connections`. Target: p99 <= 30 ms.
 * - `batch`: offline batches (`POST .../checkin/batch`) of `--batch` scans (default 500, the
 *   most one batch may hold), each with its nonce and `scanned_at`, `--connections` batches in
 *   flight, each connection its own scanner device, until the codes run out or `--duration`
 *   passes: the catch-up after a venue's network returns. Prints scans/s and the latency of a
 *   batch. Target: every batch answered within the gateway's 30 s `UPSTREAM_TIMEOUT_MS`.
 * - `stats`: `GET .../stats` (the scanners' counter), half the invites checked in first.
 *   Prints reads/s, p50, p99 and CPU per read. Target: PostgreSQL <= 6,000 µs per read and
 *   p99 <= 30 ms (the plan's 84 reads/s on one core at 50 %).
 *
 * - `gates`: entries then exits through a gate (docs/events.md, "Gates"; a gate that scans exits
 *   and allows re-entry): `--duration` s of entries, each request a different code, then as many
 *   s of exits of the codes let in, the owner scanning with `gate_id` and `direction` (the
 *   group-committed gate path, data/gate-scans.ts). Then the gate's inside-now, entries and
 *   exits must equal the history's entries and exits through it, and every entry be a 200.
 *   Target: >= 1,500 scans/s and p99 <= 30 ms in each phase.
 *
 * - `sync` (bench/events/sync.ts, issue 36): `--devices` scanner devices (default 100) keep the
 *   offline copy (`GET .../checkin/changes` every 5 s) while all the invites are checked in on the
 *   hot path. Target: every device's copy exact, pull p99 <= 1 s.
 *
 * Every check-in mode then checks `GET /stats` is exact (present = the history's check-in rows,
 * between the 200 answers and the codes sent; total/absent/taux follow) and prints PASS/FAIL.
 * Exit code 0 whether or not a target is met; 1 on errors (wrong stats, an unexpected answer...).
 *
 * Options: --mode, --duration / BENCH_DURATION (s, default 15), --connections /
 * BENCH_CONNECTIONS (default 32; batch mode 8), --warmup / BENCH_WARMUP (s, default 3),
 * --invites / BENCH_INVITES (default 50000), --rate (requests/s, open loop: every mode but batch),
 * --batch (scans per batch, default 500), --devices (device mode, default 32; sync mode, default 100).
 */
import { availableParallelism, cpus } from 'node:os';
import { createKnex } from '@fieldhouse/db';
import { parseArgs } from 'node:util';
import { printCpuTable, sleep } from '../lib/child.ts';
import { load, pacedLoad, percentile, stopLoad, type LoadResult } from '../lib/load.ts';
import { runBench } from '../lib/run.ts';
import { checkExact, setUpDevice, startEventsBench, type EventsBenchStack } from './stack.ts';
import { syncDevices } from './sync.ts';

const MODES = ['hot', 'device', 'batch', 'stats', 'gates', 'sync'] as const;
type Mode = (typeof MODES)[number];
const TARGET_RPS = 1_500;
const TARGET_P99_MS = 30;
/** The gateway's default `UPSTREAM_TIMEOUT_MS`: a batch must be answered within it. */
const UPSTREAM_TIMEOUT_MS = 30_000;
/** PostgreSQL CPU one stats read may cost: 84 reads/s on half a core (docs/scaling.md). */
const TARGET_STATS_PG_US = 6_000;

function settings() {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      invites: { type: 'string' },
      rate: { type: 'string' },
      batch: { type: 'string' },
      devices: { type: 'string' },
    },
  });
  const int = (raw: string | undefined, fallback: number) => (raw ? Number.parseInt(raw, 10) : fallback);
  const mode = (values.mode ?? 'hot') as Mode;
  if (!MODES.includes(mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
  const batch = int(values.batch, 500);
  if (batch < 1 || batch > 500) throw new Error('--batch must be 1 to 500');
  return {
    mode,
    duration: int(values.duration ?? process.env.BENCH_DURATION, 15),
    connections: int(values.connections ?? process.env.BENCH_CONNECTIONS, mode === 'batch' ? 8 : 32),
    warmup: int(values.warmup ?? process.env.BENCH_WARMUP, 3),
    invites: int(values.invites ?? process.env.BENCH_INVITES, 50_000),
    rate: values.rate ? Number(values.rate) : undefined,
    batch,
    devices: int(values.devices, 32),
    devicesGiven: values.devices ? int(values.devices, 100) : undefined,
  };
}
type Settings = ReturnType<typeof settings>;

const machine = () =>
  `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`;

/** Prints one PASS/FAIL line per target and the overall verdict. */
function verdict(lines: Array<[string, boolean]>): void {
  for (const [label, ok] of lines) console.log(`${label.padEnd(29)}${ok ? 'PASS' : 'FAIL'}`);
  console.log(`overall: ${lines.every(([, ok]) => ok) ? 'PASS' : 'FAIL'}`);
}

/** Throws on any answer but 200 or a connection error. */
function onlyOk(m: LoadResult): void {
  const non200 = Object.entries(m.statusCodes).filter(([k]) => k !== '200');
  if (non200.length || m.errors)
    throw new Error(
      `unexpected answers: ${JSON.stringify(m.statusCodes)}, ${m.errors} errors ${m.errorSamples.join('; ')}`,
    );
}

/**
 * `hot` and `device`: single scans, request i scanning `codes[from + i]`; a device's carry a
 * nonce each (the full path), the owner's none (the hot path).
 */
async function scans(stack: EventsBenchStack, s: Settings): Promise<void> {
  const device = s.mode === 'device';
  // Door scanners are many phones, each its own device (one per lane); request i uses device i mod n.
  const bearers = device
    ? await Promise.all(
        Array.from({ length: s.devices }, (_, i) => setUpDevice(stack, `Bench lane ${i + 1}`)),
      )
    : [stack.token];
  const url = `${stack.gatewayUrl}/api/events/${stack.eventId}/checkin`;
  const bodyOf = (n: number) =>
    JSON.stringify(
      device
        ? { code_unique: stack.codes[n % stack.codes.length], nonce: `${stack.suffix}-${n}` }
        : { code_unique: stack.codes[n % stack.codes.length], device: 'bench' },
    );
  const headersOf = (n: number) => ({
    authorization: `Bearer ${bearers[n % bearers.length]}`,
    'content-type': 'application/json',
  });
  const run = (from: number, duration: number) =>
    s.rate
      ? pacedLoad(url, s.rate, duration, (i) => ({ headers: headersOf(from + i), body: bodyOf(from + i) }))
      : load({
          url,
          connections: s.connections,
          duration,
          method: 'POST',
          headers: headersOf(0),
          bodies: (i) => bodyOf(from + i),
          ...(device ? { headersFor: (i: number) => headersOf(from + i) } : {}),
        });
  let sent = 0;
  let okBefore = 0;
  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s`);
    const w = await run(sent, s.warmup);
    okBefore = w.ok;
    sent += w.sent;
  }
  console.log(
    `measuring: ${s.duration} s, ${s.rate ? `paced at ${s.rate}/s (open loop)` : `${s.connections} connections`}${device ? `, ${s.devices} devices` : ''}`,
  );
  const meter = stack.meter();
  const m = await run(sent, s.duration);
  const cpu = meter.perRequest(m.ok + m.other);
  sent += m.sent;
  if (sent > stack.codes.length)
    throw new Error('the codes ran out: use more --invites or a shorter --duration');
  await sleep(500); // requests cut when autocannon stopped may still be finishing
  stack.assertRunning();
  console.log('');
  console.log(
    `POST /api/events/{id}/checkin through the gateway, ${device ? 'a scanner device, a nonce per scan (full path)' : 'the owner, no nonce (hot path)'}; ${machine()}`,
  );
  console.log(
    `check-ins/s: ${m.rps.toFixed(1)}   p50: ${m.p50.toFixed(2)} ms   p99: ${m.p99.toFixed(2)} ms   checked in: ${m.ok}`,
  );
  console.log(`status codes: ${JSON.stringify(m.statusCodes)}   errors: ${m.errors}`);
  printCpuTable([[device ? 'check-in (device)' : 'check-in', cpu]]);
  const { exact } = await checkExact(stack, okBefore + m.ok, sent);
  verdict([
    ['stats exact:', exact],
    ...(device || s.rate
      ? []
      : ([[`check-ins/s >= ${TARGET_RPS}:`, m.rps >= TARGET_RPS]] as Array<[string, boolean]>)),
    [`p99 <= ${TARGET_P99_MS} ms:`, m.p99 <= TARGET_P99_MS],
  ]);
  if (!exact) throw new Error('statistics are not exact');
  onlyOk(m);
}

/** `batch`: offline batches, `connections` in flight, each connection its own device. */
async function batches(stack: EventsBenchStack, s: Settings): Promise<void> {
  const devices = await Promise.all(
    Array.from({ length: s.connections }, (_, i) => setUpDevice(stack, `Bench lane ${i + 1}`)),
  );
  const url = `${stack.gatewayUrl}/api/events/${stack.eventId}/checkin/batch`;
  const scannedAt = new Date(Date.now() - 10 * 60_000).toISOString();
  const latencies: number[] = [];
  const statuses = new Map<string, number>();
  let next = 0;
  let admitted = 0;
  let sent = 0;
  const deadline = Date.now() + s.duration * 1000;
  console.log(
    `measuring: batches of ${s.batch} scans, ${s.connections} in flight (one device each), until ${stack.codes.length} codes or ${s.duration} s`,
  );
  const meter = stack.meter();
  const t0 = performance.now();
  await Promise.all(
    devices.map(async (credential) => {
      while (next < stack.codes.length && Date.now() < deadline) {
        const from = next;
        next = Math.min(stack.codes.length, next + s.batch);
        const scans = stack.codes.slice(from, next).map((code, k) => ({
          code_unique: code,
          nonce: `${stack.suffix}-b${from + k}`,
          scanned_at: scannedAt,
        }));
        sent = Math.max(sent, next);
        const b0 = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
          body: JSON.stringify({ scans }),
          signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS + 5_000),
        });
        const body = (await res.json()) as { results?: Array<{ status: number }> };
        latencies.push(performance.now() - b0);
        statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
        if (res.status !== 200) throw new Error(`batch: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        for (const r of body.results ?? []) {
          if (r.status !== 200) throw new Error(`a scan of a batch answered ${JSON.stringify(r)}`);
          admitted++;
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = meter.perRequest(admitted);
  stack.assertRunning();
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log('');
  console.log(`POST /api/events/{id}/checkin/batch through the gateway, scanner devices; ${machine()}`);
  console.log(
    `batches: ${latencies.length} of ${s.batch}   scans applied: ${admitted} in ${seconds.toFixed(1)} s = ${(admitted / seconds).toFixed(1)} scans/s`,
  );
  console.log(
    `batch latency: p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms`,
  );
  console.log(`status codes: ${JSON.stringify(Object.fromEntries(statuses))}`);
  printCpuTable([['scan in a batch', cpu]]);
  const { exact } = await checkExact(stack, admitted, sent);
  verdict([
    ['stats exact:', exact],
    [`every batch <= ${UPSTREAM_TIMEOUT_MS / 1000} s:`, (sorted.at(-1) ?? Infinity) <= UPSTREAM_TIMEOUT_MS],
  ]);
  if (!exact) throw new Error('statistics are not exact');
}

/** `stats`: the scanners' counter read, over an event with half its invites present. */
async function statsReads(stack: EventsBenchStack, s: Settings): Promise<void> {
  const half = Math.floor(stack.codes.length / 2);
  const seed = await load({
    url: `${stack.gatewayUrl}/api/events/${stack.eventId}/checkin`,
    connections: 32,
    duration: 600,
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    // The hot path until half the codes are sent; the few sent after repeat a code (409).
    bodies: (i) => {
      if (i === half) setImmediate(stopLoad);
      return JSON.stringify({ code_unique: stack.codes[i % half], device: 'bench' });
    },
  });
  console.log(`checked in ${seed.ok} of ${stack.codes.length} invites first`);
  const url = `${stack.gatewayUrl}/api/events/${stack.eventId}/stats`;
  const headers = { authorization: `Bearer ${stack.token}` };
  const run = (duration: number) =>
    s.rate
      ? pacedLoad(url, s.rate, duration, () => ({ headers }))
      : load({ url, connections: s.connections, duration, headers });
  if (s.warmup > 0) await run(s.warmup);
  console.log(
    `measuring: ${s.duration} s, ${s.rate ? `paced at ${s.rate}/s (open loop)` : `${s.connections} connections`}`,
  );
  const meter = stack.meter();
  const m = await run(s.duration);
  const cpu = meter.perRequest(m.ok + m.other);
  stack.assertRunning();
  console.log('');
  console.log(`GET /api/events/{id}/stats through the gateway, ${stack.codes.length} invites; ${machine()}`);
  console.log(`reads/s: ${m.rps.toFixed(1)}   p50: ${m.p50.toFixed(2)} ms   p99: ${m.p99.toFixed(2)} ms`);
  console.log(`status codes: ${JSON.stringify(m.statusCodes)}   errors: ${m.errors}`);
  printCpuTable([['stats read', cpu]]);
  verdict([
    [`PostgreSQL <= ${TARGET_STATS_PG_US} µs a read:`, (cpu.postgres ?? Infinity) <= TARGET_STATS_PG_US],
    [`p99 <= ${TARGET_P99_MS} ms:`, m.p99 <= TARGET_P99_MS],
  ]);
  onlyOk(m);
}

/**
 * `gates`: entries then exits through one gate (entries of distinct codes, then exits of the
 * codes admitted, in the same order), closed loop over `--connections`; the gate's counters must
 * equal the history's entries and exits through it.
 */
async function gateScans(stack: EventsBenchStack, s: Settings): Promise<void> {
  const auth = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
  const created = await fetch(`${stack.gatewayUrl}/api/events/${stack.eventId}/gates`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: `Bench gate ${stack.suffix}`, scan_exits: true, allow_reentry: true }),
  });
  if (created.status !== 201) throw new Error(`create gate: ${created.status} ${await created.text()}`);
  const gateId = ((await created.json()) as { id: string }).id;
  const url = `${stack.gatewayUrl}/api/events/${stack.eventId}/checkin`;
  const phase = (direction: 'entry' | 'exit', from: number, count: number | null, duration: number) =>
    load({
      url,
      connections: s.connections,
      duration,
      method: 'POST',
      headers: auth,
      bodies: (i) => {
        if (count !== null && i === count) setImmediate(stopLoad);
        return JSON.stringify({
          code_unique: stack.codes[(from + i) % stack.codes.length],
          gate_id: gateId,
          direction,
        });
      },
    });
  // Warm-up: entries and exits of the first codes, outside the measure (and the counts).
  let next = 0;
  // The warm-up's entries go through the same gate: counted in its history, so in the check.
  const warm = { ok: 0, sent: 0 };
  if (s.warmup > 0) {
    console.log(`warming up: ${s.warmup} s`);
    const w = await phase('entry', 0, null, s.warmup);
    onlyOk(w);
    await phase('exit', 0, w.sent, s.warmup * 10);
    Object.assign(warm, { ok: w.ok, sent: w.sent });
    // Past the codes of requests still on their way when the warm-up stopped.
    next = w.sent + 1000;
  }
  console.log(
    `measuring: ${s.duration} s of entries, then the same codes' exits, ${s.connections} connections`,
  );
  const meter = stack.meter();
  const entries = await phase('entry', next, null, s.duration);
  const exits = await phase('exit', next, entries.sent, s.duration * 10);
  const cpu = meter.perRequest(entries.ok + exits.ok);
  if (next + entries.sent > stack.codes.length)
    throw new Error('the codes ran out: use more --invites or a shorter --duration');
  await sleep(500);
  stack.assertRunning();
  const attendance = (await (
    await fetch(`${stack.gatewayUrl}/api/events/${stack.eventId}/attendance`, { headers: auth })
  ).json()) as {
    gates: { gates: Array<{ id: string | null; inside: number; entries: number; exits: number }> };
  };
  const counted = attendance.gates.gates.find((g) => g.id === gateId);
  // Exact: the gate's counters (what the API answers) equal the history's entries and exits
  // through the gate (one row per counted scan), inside = entries - exits, never below zero; every
  // entry answered 200 was counted, and no more were counted than sent (requests still on their
  // way when the phase stopped may have been counted without their answer being read: their
  // exits are then 200, those never sent 409), the warm-up's included.
  const check = createKnex(stack.eventsDb, { poolMax: 1 });
  const [history] = (await check('attendance_log')
    .where({ event_id: stack.eventId, gate_id: gateId })
    .select(
      check.raw(`coalesce(sum(people) FILTER (WHERE direction = 'entry'), 0)::int AS entries`),
      check.raw(`coalesce(sum(people) FILTER (WHERE direction = 'exit'), 0)::int AS exits`),
    )) as Array<{ entries: number; exits: number }>;
  await check.destroy();
  const expected = {
    inside: history!.entries - history!.exits,
    entries: history!.entries,
    exits: history!.exits,
  };
  const exact =
    counted !== undefined &&
    counted.inside === expected.inside &&
    counted.entries === expected.entries &&
    counted.exits === expected.exits &&
    counted.inside >= 0 &&
    history!.entries >= warm.ok + entries.ok &&
    history!.entries <= warm.sent + entries.sent;
  console.log('');
  console.log(
    `POST /api/events/{id}/checkin through the gateway at a gate, entry then exit (owner); ${machine()}`,
  );
  console.log(
    `entries/s: ${entries.rps.toFixed(1)}   p50: ${entries.p50.toFixed(2)} ms   p99: ${entries.p99.toFixed(2)} ms   let in: ${entries.ok}`,
  );
  console.log(
    `exits/s: ${exits.rps.toFixed(1)}   p50: ${exits.p50.toFixed(2)} ms   p99: ${exits.p99.toFixed(2)} ms   let out: ${exits.ok}`,
  );
  console.log(
    `status codes: entries ${JSON.stringify(entries.statusCodes)}, exits ${JSON.stringify(exits.statusCodes)}`,
  );
  console.log(`gate counts: ${JSON.stringify(counted)}   history: ${JSON.stringify(expected)}`);
  printCpuTable([['gate scan', cpu]]);
  verdict([
    ['counts exact:', exact],
    [`entries/s >= ${TARGET_RPS}:`, entries.rps >= TARGET_RPS],
    [`exits/s >= ${TARGET_RPS}:`, exits.rps >= TARGET_RPS],
    [`entry p99 <= ${TARGET_P99_MS} ms:`, entries.p99 <= TARGET_P99_MS],
    [`exit p99 <= ${TARGET_P99_MS} ms:`, exits.p99 <= TARGET_P99_MS],
  ]);
  if (!exact) throw new Error('the gate counts are not exact');
  onlyOk(entries);
}

async function main(): Promise<void> {
  const s = settings();
  const stack = await startEventsBench(s.invites);
  if (s.mode === 'gates') await gateScans(stack, s);
  else if (s.mode === 'batch') await batches(stack, s);
  else if (s.mode === 'stats') await statsReads(stack, s);
  else if (s.mode === 'sync') await syncDevices(stack, { devices: s.devicesGiven ?? 100 });
  else await scans(stack, s);
}

await runBench(main);
