/**
 * The SSE clients of the sse-streams scenario, in a process of their own (forked by
 * scenarios/sse-streams.ts) so that parsing thousands of streams does not slow the load generator's
 * clock. Stream k connects from loopback address number floor(k / perAddress)
 * (127.1.<n / 250>.<1 + n % 250>: the whole 127/8 is loopback on Linux), without keep-alive
 * pooling. Per stream it keeps the last `total_votes` of a `results` event, the number of such
 * events, and whether a total ever went down. Messages (IPC):
 *   in  {type:'open', url, count, perAddress}  → out {type:'opened', ok, failed, statuses, errors, ms}
 *       (a stream fails without its first event within 10 s; after 100 failures the rest are not tried)
 *   in  {type:'await', total, timeoutMs}       → out {type:'result', ...} when every stream saw `total`
 *   in  {type:'close'}                         → closes every stream and exits.
 */
import { request, type ClientRequest } from 'node:http';
import { onServerSentEvents, type ServerSentEvent } from '@fieldhouse/testkit';

interface StreamState {
  req: ClientRequest;
  lastTotal: number;
  events: number;
  wentDown: boolean;
  open: boolean;
  reachedAt?: number;
}

const streams: StreamState[] = [];
let target = -1;
const TOTAL = /"total_votes":(\d+)/;
/** A stream without its first event by then failed to open. */
const OPEN_TIMEOUT_MS = 10_000;
/** Opening stops after this many failures (the rest count as not tried). */
const MAX_OPEN_FAILURES = 100;

/** Address of client number `n`. */
const clientAddress = (n: number) => `127.1.${Math.floor(n / 250) % 256}.${1 + (n % 250)}`;

function onEvent(s: StreamState, e: ServerSentEvent) {
  if (e.event !== 'results') return;
  const m = TOTAL.exec(e.data);
  if (!m) return;
  const total = Number(m[1]);
  s.events++;
  if (total < s.lastTotal) s.wentDown = true;
  s.lastTotal = total;
  if (total === target && s.reachedAt === undefined) s.reachedAt = performance.now();
}

function openOne(url: URL, k: number, perAddress: number): Promise<number | string> {
  return new Promise((resolve) => {
    const s: StreamState = {
      req: undefined as never,
      lastTotal: -1,
      events: 0,
      wentDown: false,
      open: false,
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress: clientAddress(Math.floor(k / perAddress)),
        agent: false,
        headers: { accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          resolve(res.statusCode ?? 0);
          return;
        }
        s.open = true;
        streams.push(s);
        let first = true;
        onServerSentEvents(res, (e) => {
          onEvent(s, e);
          if (first && s.events > 0) {
            first = false;
            resolve(200);
          }
        });
        res.on('close', () => {
          s.open = false;
          if (first) resolve('closed before the first event');
        });
      },
    );
    s.req = req;
    req.setTimeout(OPEN_TIMEOUT_MS, () => {
      if (!s.open) req.destroy(new Error(`no first event within ${OPEN_TIMEOUT_MS} ms`));
    });
    req.on('error', (err) => resolve(err.message));
    req.end();
  });
}

async function open(url: string, count: number, perAddress: number) {
  const t0 = performance.now();
  const u = new URL(url);
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  let next = 0;
  const failedStatuses = () =>
    Object.entries(statuses).reduce((n, [k, v]) => (k === '200' || k === 'error' ? n : n + v), 0);
  // At most 100 connection set-ups at a time (each one's first event is a results computation).
  await Promise.all(
    Array.from({ length: Math.min(100, count) }, async () => {
      while (next < count && (statuses.error ?? 0) + failedStatuses() < MAX_OPEN_FAILURES) {
        const k = next++;
        const r = await openOne(u, k, perAddress);
        const key = String(r);
        if (typeof r === 'string' && errors.length < 5) errors.push(r);
        statuses[typeof r === 'number' ? key : 'error'] =
          (statuses[typeof r === 'number' ? key : 'error'] ?? 0) + 1;
      }
    }),
  );
  const ok = statuses['200'] ?? 0;
  if (next < count) statuses['not tried'] = count - next;
  process.send!({ type: 'opened', ok, failed: count - ok, statuses, errors, ms: performance.now() - t0 });
}

async function awaitTotal(total: number, timeoutMs: number) {
  const t0 = performance.now();
  target = total;
  for (const s of streams) if (s.lastTotal === total && s.reachedAt === undefined) s.reachedAt = t0;
  const deadline = t0 + timeoutMs;
  while (performance.now() < deadline && streams.some((s) => s.lastTotal !== total)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const events = streams.map((s) => s.events).sort((a, b) => a - b);
  process.send!({
    type: 'result',
    streams: streams.length,
    reached: streams.filter((s) => s.lastTotal === total).length,
    stillOpen: streams.filter((s) => s.open).length,
    wentDown: streams.filter((s) => s.wentDown).length,
    minEvents: events[0] ?? 0,
    medianEvents: events[Math.floor(events.length / 2)] ?? 0,
    lastReachedMs: Math.max(0, ...streams.map((s) => (s.reachedAt ?? Infinity) - t0)),
    sample: streams.find((s) => s.lastTotal !== total)?.lastTotal,
  });
}

process.on(
  'message',
  (msg: {
    type: string;
    url: string;
    count: number;
    perAddress: number;
    total: number;
    timeoutMs: number;
  }) => {
    if (msg.type === 'open') void open(msg.url, msg.count, msg.perAddress);
    else if (msg.type === 'await') void awaitTotal(msg.total, msg.timeoutMs);
    else if (msg.type === 'close') {
      for (const s of streams) s.req.destroy();
      process.exit(0);
    }
  },
);
process.on('disconnect', () => process.exit(0));
