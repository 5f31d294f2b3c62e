/**
 * A worker thread of `npm run bench:streams`: opens `count` live-results streams to `url`, each
 * from one of the loopback addresses `127.0.0.<first>`..`127.0.0.<first + addresses - 1>` in
 * turn (so the gateway sees many client addresses), and keeps, per stream, how many `results`
 * events arrived and the last `total_votes`. Answers `{type: 'report'}` messages with a summary.
 */
import { Agent, get } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { onServerSentEvents } from '@fieldhouse/testkit';

interface Input {
  url: string;
  count: number;
  firstAddress: number;
  addresses: number;
}

interface StreamState {
  events: number;
  lastTotal: number;
  status: number;
  open: boolean;
}

const { url, count, firstAddress, addresses } = workerData as Input;
const streams: StreamState[] = [];
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let failures = 0;
const failureSamples: string[] = [];

function open(i: number): Promise<void> {
  const state: StreamState = { events: 0, lastTotal: -1, status: 0, open: false };
  streams.push(state);
  return new Promise((resolve) => {
    const req = get(url, { agent, localAddress: `127.0.0.${firstAddress + (i % addresses)}` }, (res) => {
      state.status = res.statusCode ?? 0;
      state.open = state.status === 200;
      onServerSentEvents(res, (e) => {
        if (e.event !== 'results') return;
        state.events++;
        const m = /"total_votes":(\d+)/.exec(e.data);
        if (m) state.lastTotal = Number(m[1]);
      });
      res.on('close', () => (state.open = false));
      resolve();
    });
    req.on('error', (err) => {
      failures++;
      if (failureSamples.length < 5) failureSamples.push(err.message);
      resolve();
    });
  });
}

// Open in batches: a connection storm of 5,000 at once only measures the accept queue.
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j)));
}
parentPort!.postMessage({ type: 'opened' });

parentPort!.on('message', (msg: { type: string }) => {
  if (msg.type === 'report') {
    const events = streams.map((s) => s.events);
    const totals = streams.map((s) => s.lastTotal);
    parentPort!.postMessage({
      type: 'report',
      open: streams.filter((s) => s.open).length,
      statuses: streams.reduce<Record<string, number>>((acc, s) => {
        acc[s.status] = (acc[s.status] ?? 0) + 1;
        return acc;
      }, {}),
      failures,
      failureSamples,
      minEvents: Math.min(...events),
      maxEvents: Math.max(...events),
      minTotal: Math.min(...totals),
      maxTotal: Math.max(...totals),
    });
  }
  if (msg.type === 'close') {
    agent.destroy();
    process.exit(0);
  }
});
