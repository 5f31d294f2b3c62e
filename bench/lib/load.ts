/**
 * The HTTP load of the benches: one closed-loop autocannon run of `connections` connections for
 * `duration` seconds, with exact latency percentiles of the successful answers (autocannon's
 * own histogram rounds to whole milliseconds). autocannon costs about 11 µs of CPU per request
 * here (88,000 req/s against a bare Node server), a few percent of one core at the rates the
 * benches reach; wrk measured the same.
 */
import { autocannon, type AutocannonInstance } from './autocannon.ts';
import { sleep } from './child.ts';
import { percentile } from './percentile.ts';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** One body for every request. */
  body?: string;
  /** A body per request: request i sends `bodies(i)`. */
  bodies?: (i: number) => string;
  /** Headers of request i, over `headers` (another user's token per request, say). */
  headersFor?: (i: number) => Record<string, string>;
  /** The status of a successful answer (default 200); others count as `other`. */
  okStatus?: number;
  /**
   * Requests per second over all connections (default: as fast as answers come). autocannon
   * sends each second's budget at its start, a burst: for latency at a steady rate use
   * {@link pacedLoad}.
   */
  rate?: number;
}

export interface LoadResult {
  /** Successful answers per second of the run. */
  rps: number;
  /** Latency percentiles of the successful answers, in milliseconds. */
  p50: number;
  p99: number;
  ok: number;
  /** Requests started (bodies taken): with `bodies`, the next run can go on from here. */
  sent: number;
  /** Answers with another status. */
  other: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** The first few connection error messages. */
  errorSamples: string[];
  statusCodes: Record<string, number>;
}

let stopCurrent: (() => void) | undefined;

/** Stops the run in progress, if any (on SIGINT); it resolves with what it measured. */
export function stopLoad(): void {
  stopCurrent?.();
}

export { percentile };

/** Runs one load (see {@link LoadSpec}); rejects when the generator itself fails. */
export function load(spec: LoadSpec): Promise<LoadResult> {
  const okStatus = spec.okStatus ?? 200;
  let next = 0;
  const errorSamples: string[] = [];
  return new Promise((done, fail) => {
    let times = new Float64Array(1 << 16);
    let n = 0;
    const started = process.hrtime.bigint();
    const bodies = spec.bodies;
    const instance: AutocannonInstance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.duration,
        timeout: 10,
        ...(spec.rate ? { overallRate: spec.rate } : {}),
        requests: [
          {
            method: spec.method ?? 'GET',
            ...(spec.headers ? { headers: spec.headers } : {}),
            ...(spec.body !== undefined ? { body: spec.body } : {}),
            ...(bodies || spec.headersFor
              ? {
                  setupRequest: (req: Record<string, unknown>) => {
                    const i = next++;
                    return {
                      ...req,
                      ...(bodies ? { body: bodies(i) } : {}),
                      ...(spec.headersFor
                        ? { headers: { ...(req.headers as object), ...spec.headersFor(i) } }
                        : {}),
                    };
                  },
                }
              : {}),
          },
        ],
      },
      (err, result) => {
        stopCurrent = undefined;
        if (err) return fail(err);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = times.subarray(0, n).sort();
        const statusCodes = Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]),
        );
        const all = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        done({
          rps: n / seconds,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          ok: n,
          sent: next,
          other: all - n,
          errors: result.errors + result.timeouts,
          errorSamples,
          statusCodes,
        });
      },
    );
    stopCurrent = () => instance.stop();
    instance.on('reqError', (e) => {
      if (errorSamples.length < 3) errorSamples.push(e.message);
    });
    instance.on('response', (_c, status, _b, ms) => {
      if (status !== okStatus) return;
      if (n === times.length) {
        const grown = new Float64Array(times.length * 2);
        grown.set(times);
        times = grown;
      }
      times[n++] = ms;
    });
  });
}

/**
 * An open-loop load at `rate` requests/s for `seconds`: request i starts at `i / rate` s whatever
 * the earlier ones are doing, as scanners at a gate do (autocannon's `overallRate` sends each
 * second's budget at its start, a burst). Resolves with the answers' statuses and the latency
 * of each 200 (ms).
 */
export async function pacedLoad(
  url: string,
  rate: number,
  seconds: number,
  request: (i: number) => { headers: Record<string, string>; body?: string },
): Promise<LoadResult> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  const t0 = performance.now();
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const { headers, body } = request(i);
    // From when it was due: a late start (a busy event loop) counts as waiting.
    const r0 = t0 + (i * 1000) / rate;
    inFlight.push(
      fetch(url, { method: body ? 'POST' : 'GET', headers, body, signal: AbortSignal.timeout(10_000) }).then(
        async (res) => {
          await res.arrayBuffer();
          statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
          if (res.status === 200) latencies.push(performance.now() - r0);
        },
        (err: unknown) => {
          errors++;
          if (errorSamples.length < 3) errorSamples.push(String(err));
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const sorted = latencies.sort((a, b) => a - b);
  const other = Object.entries(statusCodes).reduce((n, [k, v]) => (k === '200' ? n : n + v), 0);
  return {
    rps: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ok: latencies.length,
    sent: total,
    other,
    errors,
    errorSamples,
    statusCodes,
  };
}
