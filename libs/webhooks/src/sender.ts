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
}

/** What one attempt gave; exactly one of `status` and `error` is set. */
export interface AttemptResult {
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** From sending the request to the end of the answer (or the failure), ms. */
  durationMs: number;
  /** The start of the answer's body (at most `keptResponseBytes`, UTF-8), or null. */
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
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: LookupFunction;

  constructor(opts: SenderOptions) {
    this.opts = {
      allowHttp: false,
      connectTimeoutMs: 5_000,
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
      keptResponseBytes: 1024,
      userAgent: 'Fieldhouse-Webhooks/1',
      ...opts,
    };
    const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' as const };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
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
   * POSTs `body` (JSON) with `headers` to `url` once. Never throws: every failure is an
   * {@link AttemptResult} with `error`.
   */
  send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
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
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        resolve(r);
      };
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? this.agents.https : this.agents.http,
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
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            durationMs: Math.round(performance.now() - started),
            // Text as the log keeps it: PostgreSQL text (and JSON) cannot hold NUL.
            body: Buffer.concat(chunks)
              .subarray(0, keptResponseBytes)
              .toString('utf8')
              .replaceAll('\u0000', '\uFFFD'),
            error: null,
            blocked: false,
          });
        response.on('data', (chunk: Buffer) => {
          if (read < keptResponseBytes) chunks.push(chunk);
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

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
