/**
 * The steady write load of the scenarios: open-loop streams (votes, submissions, check-ins...)
 * each sending `rate` requests per second whatever the answers, every request carrying a unique
 * marker so the durability check can find it. Each attempt is recorded: send time, answer
 * status, `Retry-After`, latency, transport error.
 */
import type { Api, Json } from './http.ts';
import { sleep } from '@fieldhouse/testkit';

/** One request of a stream. */
export interface Shot {
  marker: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface StreamSpec {
  name: string;
  /** Requests per second. */
  rate: number;
  /** The i-th request, or undefined when the stream has nothing left to send (codes used up). */
  make: (i: number) => Shot | undefined;
  /** Status of an acknowledged write (2xx). */
  ackStatus: number;
  /** With `ackStatus`, whether the body acknowledges the write (a sync item `created`...). */
  ackBody?: (body: Json) => boolean;
  /** The client to send with (else the load's). */
  api?: Api;
  /** At most this many requests in flight; above it a tick sends nothing (counted as `skipped`). */
  maxInFlight?: number;
}

export interface Attempt {
  marker: string;
  /** Whether the answer acknowledged the write. */
  acked: boolean;
  /** A retry of an earlier unacknowledged attempt (same marker, same key). */
  retry?: boolean;
  /** performance.now() at sending and at the answer, in ms. */
  sentAt: number;
  doneAt: number;
  status: number;
  retryAfter?: string;
  error?: string;
  /** The answer's problem `code`, if any. */
  code?: string;
  /** The id of what the answer made, if any (`data.vote.id` of a vote, else `data.id` or `id`). */
  answerId?: string;
}

/** A stream's state while the load runs. */
export class Stream {
  readonly attempts: Attempt[] = [];
  sent = 0;
  skipped = 0;
  inFlight = 0;
  exhausted = false;
  readonly spec: StreamSpec;
  /** The request of each marker (what a retry sends again). */
  readonly shots = new Map<string, Shot>();

  constructor(spec: StreamSpec) {
    this.spec = spec;
  }

  /** Markers of acknowledged writes. */
  acked(): string[] {
    return [...new Set(this.attempts.filter((a) => a.acked).map((a) => a.marker))];
  }

  /** Attempts sent in [from, to) (performance.now() times). */
  between(from: number, to = Infinity): Attempt[] {
    return this.attempts.filter((a) => a.sentAt >= from && a.sentAt < to);
  }

  /**
   * ms from `t` to the answer of the first acknowledged request sent at or after `t`
   * (undefined if none).
   */
  recoveryAfter(t: number): number | undefined {
    let best: number | undefined;
    for (const a of this.attempts)
      if (a.sentAt >= t && a.acked && (best === undefined || a.doneAt < best)) best = a.doneAt;
    return best === undefined ? undefined : best - t;
  }

  /** "201×120 503×4 0×2" over `attempts`. */
  static statusSummary(attempts: Attempt[]): string {
    const by = new Map<number, number>();
    for (const a of attempts) by.set(a.status, (by.get(a.status) ?? 0) + 1);
    return (
      [...by.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s === 0 ? 'no-answer' : s}×${n}`)
        .join(' ') || 'none'
    );
  }
}

/** Runs streams until {@link SteadyLoad.stop}. */
export class SteadyLoad {
  readonly streams: Stream[];
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();
  private started = 0;
  private readonly api: Api;

  constructor(api: Api, specs: StreamSpec[]) {
    this.api = api;
    this.streams = specs.map((s) => new Stream(s));
  }

  stream(name: string): Stream {
    const s = this.streams.find((x) => x.spec.name === name);
    if (!s) throw new Error(`no stream ${name}`);
    return s;
  }

  /** Starts sending (a tick every 20 ms sends what the rates call for since the start). */
  start(): void {
    this.started = performance.now();
    this.timer = setInterval(() => this.tick(), 20);
  }

  private tick(): void {
    const elapsed = (performance.now() - this.started) / 1000;
    for (const s of this.streams) {
      const due = Math.floor(elapsed * s.spec.rate);
      while (s.sent + s.skipped < due && !s.exhausted) {
        if (s.inFlight >= (s.spec.maxInFlight ?? 100)) {
          s.skipped++;
          continue;
        }
        const shot = s.spec.make(s.sent);
        if (!shot) {
          s.exhausted = true;
          break;
        }
        s.sent++;
        this.fire(s, shot);
      }
    }
  }

  private fire(s: Stream, shot: Shot): void {
    const p = send(s, shot, this.api, false);
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Stops sending and waits for every request in flight to be answered or to time out. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    while (this.pending.size) {
      await Promise.all([...this.pending]);
      await sleep(0);
    }
  }
}

/** Sends one shot of stream `s` and records the attempt (with the shot, to retry it). */
async function send(s: Stream, shot: Shot, api: Api, retry: boolean): Promise<void> {
  s.inFlight++;
  const sentAt = performance.now();
  const a = await (s.spec.api ?? api).send(shot.method, shot.path, shot.body, shot.headers);
  s.inFlight--;
  const code = a.body && typeof a.body === 'object' ? (a.body as { code?: unknown }).code : undefined;
  const answerId = answerIdOf(a.body);
  s.shots.set(shot.marker, shot);
  s.attempts.push({
    marker: shot.marker,
    acked: a.status === s.spec.ackStatus && (s.spec.ackBody?.(a.body) ?? true),
    ...(retry ? { retry } : {}),
    sentAt,
    doneAt: performance.now(),
    status: a.status,
    ...(a.headers['retry-after'] ? { retryAfter: String(a.headers['retry-after']) } : {}),
    ...(a.error ? { error: a.error } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(answerId ? { answerId } : {}),
  });
}

/** `data.vote.id`, `data.id` or `id` of an answer's body, when a string. */
function answerIdOf(body: Json): string | undefined {
  const id: unknown = body?.data?.vote?.id ?? body?.data?.id ?? body?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * What a client does with the writes it got no acknowledgement for: sends each again, once,
 * with the same marker and retry key (after the fault, the load stopped). Resolves with the
 * retries' answers by status; the retries join the stream's attempts (flagged `retry`).
 */
export async function retryUnacknowledged(s: Stream, api: Api): Promise<string> {
  const acked = new Set(s.acked());
  const todo = [...new Set(s.attempts.filter((a) => !a.acked && !a.retry).map((a) => a.marker))].filter(
    (m) => !acked.has(m),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < todo.length) await send(s, s.shots.get(todo[next++]!)!, api, true);
    }),
  );
  return `${todo.length} retried (${Stream.statusSummary(s.attempts.filter((a) => a.retry))})`;
}
