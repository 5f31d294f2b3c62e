import {
  request,
  type Agent,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Logger } from '@fieldhouse/logger';
import type { ProblemError } from '@fieldhouse/problem';
import { upstreamProblem } from './upstream-problem.ts';
import { defineGauge } from '@fieldhouse/http';

/** What identifies one upstream stream: identical for callers who would get identical events. */
export interface SharedStreamRequest {
  /** Sharing key: the upstream, the path with its query, and every caller input the upstream reads. */
  key: string;
  /** Full upstream URL. */
  url: string;
  /** Headers of the upstream request (internal JWT, request id...). */
  headers: Record<string, string>;
}

/** One upstream event stream and the clients it feeds. */
interface Shared {
  upstream: ClientRequest;
  /** Clients waiting for the upstream's answer. */
  pending: Set<ServerResponse>;
  /** Each client, and the newest snapshot held back until its socket drains. */
  clients: Map<ServerResponse, { waiting: Buffer | null }>;
  /** Whether the upstream answered 200 (clients are started at once from then on). */
  streaming: boolean;
  /** The preamble (`retry:`) and the newest snapshot event, replayed to each new client. */
  preamble: string;
  latest: string;
  /** A snapshot held back by the write budget, and when one was last sent (epoch ms). */
  unsent: string | null;
  lastSentAt: number;
  timer: NodeJS.Timeout | undefined;
}

/** Client writes per turn of the event loop (all shared streams together). */
const SLICE = 250;

/** One event on its way to the clients of a stream (as they were when it came). */
interface WriteJob {
  shared: Shared;
  clients: Array<[ServerResponse, { waiting: Buffer | null }]>;
  bytes: Buffer;
  comment: boolean;
  /** Index of the next client to write. */
  next: number;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/**
 * Shares upstream event streams whose events are complete snapshots (polls' live results)
 * between the clients that would receive identical events (docs/identity.md, "Live streams"):
 * the same path and query, the same user and client address and the same voter fingerprint
 * header. The first client opens the upstream stream; later ones get the preamble and the
 * newest snapshot at once, then every event as it comes; the upstream stream closes with its
 * last client. A venue full of phones behind one address costs the service one stream instead
 * of one per phone, and the gateway one upstream socket (a process holds at most as many sockets
 * as its file limit: 10,000 clients with 10,000 upstream sockets would need 20,000).
 *
 * A client whose socket is full is skipped and gets the newest snapshot once it drains. A
 * non-200 upstream answer is relayed to the clients that were waiting for it. When the upstream
 * stream ends or fails, its clients' streams end (EventSource reconnects after `retry`).
 */
export class SharedStreams {
  private readonly service: string;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly writesPerSecond: number;
  private readonly logger: Logger;
  private readonly shared = new Map<string, Shared>();
  /** Clients of all shared streams (kept as they come and go: read on every snapshot). */
  private clientCount = 0;

  /**
   * @param opts.timeoutMs most silence (ms) from the upstream before its stream is dropped.
   * @param opts.writesPerSecond snapshot writes per second this process allows itself for all
   *   shared streams: with N clients in all, one stream's snapshots are at least N / budget
   *   seconds apart (10,000 clients, 10,000/s: one a second), the newest replacing any held
   *   back, so a large audience costs a bounded share of the CPU and always gets the last state.
   */
  constructor(opts: {
    service: string;
    agent: Agent;
    timeoutMs: number;
    writesPerSecond: number;
    logger: Logger;
  }) {
    this.service = opts.service;
    this.agent = opts.agent;
    this.timeoutMs = opts.timeoutMs;
    this.writesPerSecond = opts.writesPerSecond;
    this.logger = opts.logger;
    defineGauge(
      'gateway_streams_upstream',
      'Upstream snapshot streams open (shared by identical callers).',
      () => this.shared.size,
    );
    defineGauge(
      'gateway_streams_shared_clients',
      'Clients fed by shared upstream snapshot streams.',
      () => this.clientCount,
    );
  }

  /** Adds a client (its response not started) to the upstream stream of `req.key`. */
  attach(req: SharedStreamRequest, res: ServerResponse): void {
    let shared = this.shared.get(req.key);
    if (!shared) shared = this.open(req);
    if (shared.streaming) this.start(shared, res);
    else shared.pending.add(res);
    res.once('close', () => this.detach(req.key, shared, res));
  }

  private open(req: SharedStreamRequest): Shared {
    const upstream = request(req.url, { agent: this.agent, headers: req.headers });
    const shared: Shared = {
      upstream,
      pending: new Set(),
      clients: new Map(),
      streaming: false,
      preamble: '',
      latest: '',
      unsent: null,
      lastSentAt: 0,
      timer: undefined,
    };
    this.shared.set(req.key, shared);
    let timedOut = false;
    upstream.setTimeout(this.timeoutMs, () => {
      timedOut = true;
      upstream.destroy();
    });
    upstream.on('response', (up) => this.answered(req.key, shared, up));
    upstream.on('error', (err: Error & { code?: string }) => {
      if (this.shared.get(req.key) !== shared) return; // destroyed with its last client
      this.logger.warn('upstream stream failed', {
        service: this.service,
        code: err.code,
        timeout: timedOut,
      });
      this.end(req.key, shared, upstreamProblem(this.service, err, timedOut));
    });
    upstream.end();
    return shared;
  }

  private answered(key: string, shared: Shared, up: IncomingMessage): void {
    if (up.statusCode !== 200) {
      // Relay the answer (a problem document) to every waiting client, then forget the stream.
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('close', () => {
        // Cut off mid-body: the waiting clients get the gateway's own answer instead.
        if (!up.complete) return this.end(key, shared, upstreamProblem(this.service, {}, false));
        const body = Buffer.concat(chunks);
        for (const res of shared.pending) {
          if (res.destroyed) continue;
          res.writeHead(up.statusCode ?? 502, {
            'Content-Type': up.headers['content-type'] ?? 'application/problem+json',
            ...(up.headers['retry-after'] ? { 'Retry-After': up.headers['retry-after'] } : {}),
          });
          res.end(body);
        }
        shared.pending.clear();
        if (this.shared.get(key) === shared) this.shared.delete(key);
      });
      return;
    }
    shared.streaming = true;
    for (const res of shared.pending) this.start(shared, res);
    shared.pending.clear();
    up.setEncoding('utf8');
    let buf = '';
    up.on('data', (chunk: string) => {
      buf += chunk;
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const event = buf.slice(0, end + 2);
        buf = buf.slice(end + 2);
        this.relay(shared, event);
      }
    });
    up.on('close', () => this.end(key, shared));
  }

  /**
   * Takes one event block from the upstream: comments (heartbeats) go to every client at once;
   * the preamble is kept for joiners; a snapshot goes out now or, within the write budget's
   * spacing, once at the end of it (only the newest).
   */
  private relay(shared: Shared, event: string): void {
    if (event.startsWith(':')) return this.broadcast(shared, event, true);
    if (event.startsWith('retry:')) {
      shared.preamble = event;
      return this.broadcast(shared, event, true);
    }
    shared.latest = event;
    shared.unsent = event;
    if (shared.timer) return;
    const spacing = (this.clientCount / this.writesPerSecond) * 1000;
    const wait = shared.lastSentAt + spacing - Date.now();
    if (wait <= 0) return this.flush(shared);
    shared.timer = setTimeout(() => {
      shared.timer = undefined;
      this.flush(shared);
    }, wait);
  }

  /** Sends the snapshot held back, if any (`now`: every write before returning). */
  private flush(shared: Shared, now = false): void {
    const event = shared.unsent;
    if (event === null) return;
    shared.unsent = null;
    shared.lastSentAt = Date.now();
    this.broadcast(shared, event, false, now);
  }

  /**
   * Writes one event to every client of a stream: encoded once, and queued behind the writes
   * of other streams; the queue is drained {@link SLICE} client writes per turn of the event
   * loop, so that ten thousand writes (many streams pushing after the same vote) never hold up
   * the requests that arrive meanwhile. Each client still gets its events in order (one FIFO).
   * `now`: written before returning (the last event of a stream that ends).
   */
  private broadcast(shared: Shared, event: string, comment: boolean, now = false): void {
    const job: WriteJob = {
      shared,
      clients: [...shared.clients],
      bytes: Buffer.from(event),
      comment,
      next: 0,
    };
    if (now) return void this.write(job, Infinity);
    this.queue.push(job);
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(this.pump);
    }
  }

  private readonly queue: WriteJob[] = [];
  private pumping = false;
  private readonly pump = (): void => {
    let budget = SLICE;
    while (budget > 0 && this.queue.length) {
      const job = this.queue[0]!;
      budget -= this.write(job, budget);
      if (job.next >= job.clients.length) this.queue.shift();
    }
    if (this.queue.length) setImmediate(this.pump);
    else this.pumping = false;
  };

  /** Writes up to `max` clients of a job; returns how many it wrote. */
  private write(job: WriteJob, max: number): number {
    const to = Math.min(job.clients.length, job.next + max);
    const from = job.next;
    for (let i = from; i < to; i++) {
      const [res, state] = job.clients[i]!;
      if (res.writableEnded || res.destroyed) continue;
      if (res.writableNeedDrain) {
        if (!job.comment) state.waiting = job.bytes;
        continue;
      }
      res.write(job.bytes);
    }
    job.next = to;
    return to - from;
  }

  private start(shared: Shared, res: ServerResponse): void {
    if (res.destroyed) return;
    const state = { waiting: null as Buffer | null };
    shared.clients.set(res, state);
    this.clientCount++;
    res.on('drain', () => {
      if (state.waiting === null) return;
      const event = state.waiting;
      state.waiting = null;
      res.write(event);
    });
    res.writeHead(200, SSE_HEADERS);
    res.write(shared.preamble + shared.latest);
  }

  private detach(key: string, shared: Shared, res: ServerResponse): void {
    shared.pending.delete(res);
    if (shared.clients.delete(res)) this.clientCount--;
    if (shared.pending.size || shared.clients.size) return;
    if (this.shared.get(key) === shared) this.shared.delete(key);
    if (shared.timer) clearTimeout(shared.timer);
    shared.upstream.destroy();
  }

  /**
   * Ends every client of a stream that ended or failed; clients still waiting for the upstream's
   * answer get `problem` (by default the one of an unreachable service).
   */
  private end(key: string, shared: Shared, problem?: ProblemError): void {
    if (this.shared.get(key) === shared) this.shared.delete(key);
    const answer = problem ?? upstreamProblem(this.service, {}, false);
    for (const res of shared.pending) {
      if (res.destroyed || res.headersSent) continue;
      res.writeHead(answer.status, { ...answer.headers, 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify(answer.toBody()));
    }
    shared.pending.clear();
    if (shared.timer) clearTimeout(shared.timer);
    // The events still queued for its clients, then the last state (a `deleted` event, say).
    for (const job of this.queue) if (job.shared === shared) this.write(job, Infinity);
    this.flush(shared, true);
    for (const res of shared.clients.keys()) if (!res.writableEnded) res.end();
    this.clientCount -= shared.clients.size;
    shared.clients.clear();
  }
}
