import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from './address-guard.ts';
import { BlockedAddressError } from './address-guard.ts';

/** Limits of one delivery attempt (docs/webhooks.md, "Deliveries"). */
export interface SenderOptions {
  guard: AddressGuard;
  /** Whether `http:` targets may be called (development and tests); else only `https:`. */
  allowHttp?: boolean;
  /** Longest wait for the TCP (and TLS) connection, ms; default 5,000. */
  connectTimeoutMs?: number;
  /** Longest wait for the whole attempt, from the request to the answer's status, ms; default 10,000. */
  timeoutMs?: number;
  /** Bytes of the answer read at most before the connection is dropped; default 64 KiB. */
  maxResponseBytes?: number;
  /** Bytes of the answer kept in the delivery log; default 1 KiB. */
  keptResponseBytes?: number;
  userAgent?: string;
  /**
   * Connections open at once per pool (one pool per owner: `send`'s `pool`) and origin; default
   * 16, the worker's attempts per owner. Beyond it a request waits for one of its own pool's
   * connections, never for another pool's.
   */
  socketsPerPool?: number;
}

/** The keep-alive agents of one pool (one owner), and when it was last used. */
interface Pool {
  http: http.Agent;
  https: https.Agent;
  /** Requests under way through it. */
  active: number;
  /** `performance.now()` of its last request's end. */
  idleSince: number;
}

/** A pool unused this long (ms) is closed by the sweep, which runs this often. */
const POOL_IDLE_MS = 60_000;

/** What one attempt gave; exactly one of `status` and `error` is set. */
export interface AttemptResult {
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** From sending the request to the end of the answer (or the failure), ms. */
  durationMs: number;
  /**
   * The start of the answer's body (at most `keptResponseBytes`, UTF-8), or null: no answer, or
   * an answer from an address the guard admitted only by its allow-list (`admission` `allowed`,
   * `WEBHOOK_ALLOWED_NETWORKS`), whose body the delivery log must not show (a readable SSRF
   * into loopback services otherwise).
   */
  body: string | null;
  /** Why no answer came (timeout, refused connection, blocked address...), or null. */
  error: string | null;
  /** The target resolved to an address the guard refuses: retrying cannot help. */
  blocked: boolean;
}

/** Whether an attempt counts as delivered: a 2xx answer within the time limit. */
export const delivered = (r: AttemptResult): boolean =>
  r.status !== null && r.status >= 200 && r.status < 300;

/**
 * Sends webhook deliveries: one POST per attempt over keep-alive connections, redirects never
 * followed, every address checked by the SSRF guard at connection time, after DNS resolution
 * (a name with any refused address is refused; IP literals are checked before connecting).
 * A slow or huge answer cannot hold a worker: connect and total time limits, and at most
 * `maxResponseBytes` read.
 */
export class WebhookSender {
  private readonly opts: Required<SenderOptions>;
  /** Connection pools by owner (`send`'s `pool`), made on first use, closed once idle. */
  private readonly pools = new Map<string, Pool>();
  private readonly sweep: NodeJS.Timeout;
  private readonly lookup: LookupFunction;

  constructor(opts: SenderOptions) {
    this.opts = {
      allowHttp: false,
      connectTimeoutMs: 5_000,
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
      keptResponseBytes: 1024,
      userAgent: 'Fieldhouse-Webhooks/1',
      socketsPerPool: 16,
      ...opts,
    };
    this.sweep = setInterval(() => this.closeIdlePools(), POOL_IDLE_MS);
    this.sweep.unref();
    const guard = this.opts.guard;
    this.lookup = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const refusal = guard.refusalOfResolved(
          hostname,
          addresses.map((a) => a.address),
        );
        if (refusal) return callback(new BlockedAddressError(refusal), '', 0);
        if (options.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
  }

  /**
   * POSTs `body` (JSON) with `headers` to `url` once, over a connection of `pool` (the owner's:
   * at most `socketsPerPool` per origin, so one owner's dead origin cannot take the connections
   * another owner needs to the same origin). Never throws: every failure is an
   * {@link AttemptResult} with `error`.
   */
  send(url: string, headers: Record<string, string>, body: string, pool = ''): Promise<AttemptResult> {
    const started = performance.now();
    const fail = (error: string, blocked = false): AttemptResult => ({
      status: null,
      durationMs: Math.round(performance.now() - started),
      body: null,
      error,
      blocked,
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(fail('The URL is not valid.', true));
    }
    const secure = target.protocol === 'https:';
    if (!secure && !(target.protocol === 'http:' && this.opts.allowHttp))
      return Promise.resolve(
        fail(`Only https URLs may receive deliveries here, not ${target.protocol}.`, true),
      );
    const refusal = this.opts.guard.refusalOfLiteral(target.hostname);
    if (refusal) return Promise.resolve(fail(refusal, true));

    const { connectTimeoutMs, timeoutMs, maxResponseBytes, keptResponseBytes } = this.opts;
    const agents = this.poolOf(pool);
    agents.active++;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        agents.active--;
        agents.idleSince = performance.now();
        resolve(r);
      };
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup: this.lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': this.opts.userAgent,
          ...headers,
        },
      });
      const total = setTimeout(
        () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`)),
        timeoutMs,
      );
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        const connectTimer = setTimeout(
          () => request.destroy(new Error(`Could not connect within ${connectTimeoutMs / 1000} s.`)),
          connectTimeoutMs,
        );
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        socket.once('close', () => clearTimeout(connectTimer));
      });
      request.on('error', (err) =>
        finish(
          fail(
            err.message || (err as NodeJS.ErrnoException).code || 'request failed',
            err instanceof BlockedAddressError,
          ),
        ),
      );
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        // Only a public address's answer is kept (issue 31; docs/webhooks.md, "SSRF guard").
        const keep = this.opts.guard.admission(response.socket?.remoteAddress ?? '') === 'public';
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            durationMs: Math.round(performance.now() - started),
            // Text as the log keeps it: PostgreSQL text (and JSON) cannot hold NUL.
            body: keep
              ? Buffer.concat(chunks)
                  .subarray(0, keptResponseBytes)
                  .toString('utf8')
                  .replaceAll('\u0000', '\uFFFD')
              : null,
            error: null,
            blocked: false,
          });
        response.on('data', (chunk: Buffer) => {
          if (keep && read < keptResponseBytes) chunks.push(chunk);
          read += chunk.length;
          if (read >= maxResponseBytes) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        // The status is the answer: a body cut short by the time limit or a reset still counts.
        response.on('error', done);
        response.on('close', done);
      });
      request.end(body);
    });
  }

  /** The agents of a pool, made on first use. */
  private poolOf(key: string): Pool {
    let pool = this.pools.get(key);
    if (!pool) {
      const options = {
        keepAlive: true,
        maxSockets: this.opts.socketsPerPool,
        maxFreeSockets: Math.min(4, this.opts.socketsPerPool),
        scheduling: 'lifo' as const,
      };
      pool = { http: new http.Agent(options), https: new https.Agent(options), active: 0, idleSince: 0 };
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Closes the pools with no request under way for {@link POOL_IDLE_MS} (their kept-alive connections with them). */
  private closeIdlePools(): void {
    const before = performance.now() - POOL_IDLE_MS;
    for (const [key, pool] of this.pools)
      if (pool.active === 0 && pool.idleSince < before) {
        pool.http.destroy();
        pool.https.destroy();
        this.pools.delete(key);
      }
  }

  /** Closes every pool's kept-alive connections. */
  close(): void {
    clearInterval(this.sweep);
    for (const pool of this.pools.values()) {
      pool.http.destroy();
      pool.https.destroy();
    }
    this.pools.clear();
  }
}
