import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import bytes from 'bytes';
import { createProxyMiddleware, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from '@fieldhouse/logger';
import { sendProblem, payloadTooLarge, type ProblemError } from '@fieldhouse/problem';
import { ipKeyGenerator } from 'express-rate-limit';
import type { InternalTokenIssuer } from './internal-token.ts';
import { SharedStreams } from './shared-streams.ts';
import { upstreamProblem } from './upstream-problem.ts';
import type { StreamCaps } from './stream-caps.ts';

/** A service behind the gateway and the path prefix routed to it (issue #2, "Path prefixes"). */
export interface Upstream {
  /** Service name; also the `aud` of its internal JWTs. */
  name: 'collection' | 'polls' | 'events';
  target: string;
  /** Path prefix as a whole segment: `/api/polls` matches `/api/polls` and `/api/polls/...`. */
  prefix: string;
  /** Paths (no query) of the upstream's event streams (SSE), besides `Accept: text/event-stream`. */
  streams?: RegExp;
  /**
   * Whether the `streams` paths send complete snapshots (each event replaces the previous one),
   * so that callers who would get identical events can share one upstream stream.
   */
  snapshotStreams?: boolean;
}

/** Whether `path` (no query) falls under `prefix` as a whole segment. */
export const underPrefix = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * Request headers never forwarded: hop-by-hop headers (RFC 9110 7.6.1), the caller's
 * credentials (replaced by the internal JWT), CSRF headers, and anything a client could use to
 * impersonate the gateway.
 */
const STRIPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'cookie',
  'x-csrf-token',
  'x-xsrf-token',
]);
const INTERNAL_PREFIXES = ['x-internal-', 'x-gateway-', 'x-user-', 'x-auth-'];

/** Removes stripped and internal headers from a request before it is proxied. */
function stripClientHeaders(req: IncomingMessage): void {
  for (const name in req.headers) {
    if (STRIPPED.has(name) || (name.startsWith('x-') && INTERNAL_PREFIXES.some((p) => name.startsWith(p))))
      delete req.headers[name];
  }
}

export interface ProxyDeps {
  tokens: InternalTokenIssuer;
  /** Most time (ms) an upstream may stay silent: before its answer, or between two stream events. */
  timeoutMs: number;
  /** Caps on open event streams; every stream takes a place while it is open. */
  streamCaps: StreamCaps;
  /** Snapshot writes per second to clients of shared streams (see SharedStreams). */
  streamWritesPerSecond: number;
  /** Largest request body forwarded, by `Content-Length` (`20mb`...). */
  bodyLimit: string;
  logger: Logger;
  /**
   * Answers an upstream failure (502, 504) in the client's own words where it has them (the
   * collection service's OpenRosa routes: an `OpenRosaResponse`); returns false, having written
   * nothing, to leave it a problem document.
   */
  failureAnswer?: (req: Request, res: Response, problem: ProblemError) => boolean;
}

/** Whether a request opens an event stream (SSE): by the upstream's stream paths or its Accept header. */
function isEventStream(req: Request, upstream: Upstream, streamPath: boolean): boolean {
  return (
    req.method === 'GET' && (streamPath || String(req.headers.accept ?? '').includes('text/event-stream'))
  );
}

/**
 * The proxy for one upstream: strips client headers, adds the internal JWT (`Authorization`)
 * and `X-Request-Id`, streams the body untouched (no parser runs before it), and turns upstream
 * failures into problems that name the service, never its host: 502 when it cannot be reached,
 * 504 when it does not answer within `timeoutMs`.
 *
 * Event streams (issue #14, docs/identity.md "Live streams") never share the bounded socket
 * pool of ordinary requests: they hold a connection for as long as the client watches, and 256
 * of them used to leave no socket for anything else. They get their own unbounded agent (their
 * number is bounded by {@link StreamCaps} instead: per client address, per user and in all,
 * 429 `too_many_streams` with `Retry-After` above it).
 */
export function proxyTo(upstream: Upstream, deps: ProxyDeps): RequestHandler {
  const limit = bytes.parse(deps.bodyLimit) ?? 20 * 1024 * 1024;
  const requests = proxyWith(
    upstream,
    deps,
    new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
  );
  const streamAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const streams = proxyWith(upstream, deps, streamAgent);
  const shared = upstream.snapshotStreams
    ? new SharedStreams({
        service: upstream.name,
        agent: streamAgent,
        timeoutMs: deps.timeoutMs,
        writesPerSecond: deps.streamWritesPerSecond,
        logger: deps.logger,
      })
    : undefined;

  return (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > limit) return next(payloadTooLarge());
    const streamPath = upstream.streams?.test(req.path) ?? false;
    const stream = isEventStream(req, upstream, streamPath);
    let release: (() => void) | undefined;
    if (stream) {
      try {
        // Per address as the rate limits count it (an IPv6 client by its /56 network).
        release = deps.streamCaps.acquire(ipKeyGenerator(req.ip ?? ''), req.identity.user?.id ?? null);
      } catch (err) {
        return next(err);
      }
      res.once('close', release);
      if (!endWhenClientLeaves(req, res)) return;
    }
    stripClientHeaders(req);
    const authorization = `Bearer ${deps.tokens.tokenFor(upstream.name, req.identity, req.ip)}`;
    if (stream && shared && streamPath) {
      const fingerprint = req.headers['x-voter-fingerprint'];
      shared.attach(
        {
          // Everything the upstream reads of the caller: the path and query, the user, the
          // address (in the internal JWT) and the voter fingerprint header.
          key: [upstream.name, req.url, req.identity.user?.id ?? '-', req.ip, fingerprint ?? ''].join(' '),
          url: `${upstream.target}${req.url}`,
          headers: {
            authorization,
            accept: 'text/event-stream',
            'x-request-id': req.id,
            ...(typeof fingerprint === 'string' ? { 'x-voter-fingerprint': fingerprint } : {}),
          },
        },
        res,
      );
      return;
    }
    req.headers.authorization = authorization;
    req.headers['x-request-id'] = req.id;
    // The path prefix an app user's client used (it holds the key): the service's OpenRosa
    // answers link to the form under it (docs/identity.md, "App users"). Only the gateway sets it.
    // Only OpenRosa clients use an app user's address: the service answers them in OpenRosa words
    // (an OpenRosaResponse) even when the client left out `X-OpenRosa-Version`, as the gateway does.
    if (req.identity.appUser) {
      req.headers['x-gateway-openrosa-base'] = req.identity.appUser.basePath;
      req.headers['x-openrosa-version'] ??= '1.0';
    }
    void (stream ? streams : requests)(req, res, next);
  };
}

/** Response headers of the upstream's own connection (RFC 9110 7.6.1), besides those its `Connection` names. */
const HOP_BY_HOP_ANSWER = ['connection', 'keep-alive', 'proxy-connection', 'te', 'upgrade'];

/**
 * Makes the upstream's answer carry the client connection's `Connection`, not the upstream's.
 * RFC 9110 7.6.1: "a proxy or gateway MUST parse a received Connection header field before a
 * message is forwarded and, for each connection-option in this field, remove any header or
 * trailer field(s) from the message with the same name as the connection-option, and then
 * remove the Connection header field itself". httpxy copied the upstream's `Connection:
 * keep-alive` (and `Keep-Alive: timeout=5`) onto the client's answer, and a `Connection` set on
 * a Node `ServerResponse` overrides what the server decided from the request: a client that
 * sent `Connection: close` got `keep-alive` and an open socket, against RFC 9112 9.6 ("A server
 * that receives a "close" connection option MUST initiate closure of the connection after it
 * sends the final response"). What Node decided for the client's connection
 * (`res.shouldKeepAlive`: false for `close`, an HTTP/1.0 request without keep-alive, or a server
 * shutting down) is written instead; httpxy keeps it, except for HTTP/1.0 clients, which always
 * get `close`.
 */
function clientConnectionHeaders(proxyRes: IncomingMessage, res: ServerResponse): void {
  const headers = proxyRes.headers;
  const named = String(headers.connection ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    // The body's framing is httpxy's and Node's business, whatever the upstream's Connection says.
    .filter((token) => token !== '' && token !== 'transfer-encoding' && token !== 'content-length');
  for (const name of [...HOP_BY_HOP_ANSWER, ...named]) delete headers[name];
  headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
}

/**
 * Ends an event stream as soon as its client ends its side of the connection. The gateway's
 * server answers half-closed clients (libs/http `answerHalfClosed`), so the end of the client's
 * side no longer closes the socket by itself; a stream, unlike an ordinary answer, would then
 * stay open (its upstream stream and its place under {@link StreamCaps} held) until a write
 * failed. A client that closes its EventSource sends exactly that end. Returns false (the
 * answer destroyed) when the client's side had already ended before the stream began.
 */
function endWhenClientLeaves(req: IncomingMessage, res: ServerResponse): boolean {
  const socket = req.socket;
  if (socket.readableEnded) {
    res.destroy();
    return false;
  }
  const leave = () => res.destroy();
  socket.once('end', leave);
  res.once('close', () => socket.off('end', leave));
  return true;
}

/** An http-proxy-middleware instance for `upstream` over `agent`, with the problem errors above. */
function proxyWith(upstream: Upstream, deps: ProxyDeps, agent: Agent) {
  const timedOut = new WeakSet<IncomingMessage>();
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    // A URL, not a string: both http-proxy-middleware and httpxy would parse a string per request.
    target: new URL(upstream.target),
    changeOrigin: true,
    xfwd: true,
    agent,
    // The default plugins include a logger that formats a URL and a line for every response,
    // even with nothing listening: a third of the proxy's CPU. Errors are logged below.
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
    on: {
      proxyReq: (proxyReq: ClientRequest, req: IncomingMessage) => {
        proxyReq.setTimeout(deps.timeoutMs, () => {
          timedOut.add(req);
          proxyReq.destroy();
        });
      },
      proxyRes: (proxyRes: IncomingMessage, _req: IncomingMessage, res: ServerResponse) =>
        clientConnectionHeaders(proxyRes, res),
      error: (err: Error & { code?: string }, req: IncomingMessage, res: ServerResponse | Socket) => {
        const problem = upstreamProblem(upstream.name, err, timedOut.has(req));
        deps.logger.warn('upstream request failed', {
          upstream: upstream.name,
          code: err.code,
          timeout: problem.status === 504,
        });
        if (!('writeHead' in res)) return void res.destroy();
        if (res.headersSent) return void res.destroy();
        if (deps.failureAnswer?.(req as Request, res as Response, problem)) return;
        sendProblem(res as unknown as Parameters<typeof sendProblem>[0], problem);
      },
    },
  });
}
