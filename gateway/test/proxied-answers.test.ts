import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { startTestGateway, type TestGateway } from './support.ts';

/**
 * What a proxied answer carries, header by header (issue #21 trimmed the per-request work of
 * the proxied path; none of this may change): helmet's headers (as on the gateway's own
 * routes), `X-Request-Id`, the draft-8 `RateLimit` / `RateLimit-Policy` of both limiters,
 * CORS for allowed origins only, problem+json errors, and what the service receives.
 */

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A fake service: records each request; `/api/v1/own-csp` answers with its own CSP. */
async function startUpstream(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const body = JSON.stringify({ data: { ok: true } });
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-upstream': 'yes',
    };
    if (req.url?.startsWith('/api/v1/own-csp')) headers['content-security-policy'] = "default-src 'none'";
    res.writeHead(req.url?.startsWith('/api/v1/missing') ? 404 : 200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** One raw HTTP request (repeated headers kept apart, as `rawHeaders`). */
function call(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; raw: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own: the 413 test leaves its connection waiting for a body.
    const req = httpRequest(`${base}${path}`, {
      method: opts.method ?? 'GET',
      headers: opts.headers ?? {},
      agent: false,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders, body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** All values of one response header, in order, from `rawHeaders`. */
const values = (raw: string[], name: string) =>
  raw.flatMap((v, i) => (i % 2 === 0 && v.toLowerCase() === name ? [raw[i + 1]!] : []));

/** express-rate-limit's draft-8 partition key: base64 of the first 12 hex digits of SHA-256. */
const pk = (key: string) =>
  Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

const HELMET = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('gateway: proxied answers keep every header (helmet, request id, RateLimit, CORS) and problem errors', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let g: TestGateway;
  let token: string;
  let userId: number;
  /** Helmet's headers on the gateway's own routes, the reference for proxied answers. */
  let ownHelmet: Record<string, string>;

  before(async () => {
    upstream = await startUpstream();
    g = await startTestGateway({
      COLLECTION_URL: upstream.url,
      EVENTS_URL: upstream.url,
      CORS_ORIGINS: 'https://app.example.org',
      RATE_LIMIT_USER: '5',
      RATE_LIMIT_IP: '1000',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    });
    const res = await fetch(`${g.url}/api/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        name: 'Header Tester',
        email: 'headers@example.test',
        password: 'a-long-password-1',
      }),
    });
    expect(res.status).to.equal(201);
    const body = (await res.json()) as { token: string; user: { id: number } };
    token = body.token;
    userId = body.user.id;
    const own = await call(g.url, '/healthz');
    ownHelmet = Object.fromEntries(HELMET.map((h) => [h, String(own.headers[h])]));
  });
  after(async () => {
    await g?.stop();
    await new Promise((resolve) => upstream?.server.close(resolve));
  });

  it('a proxied 200: helmet headers, X-Request-Id, both RateLimit entries, the service’s own headers', async () => {
    const before = upstream.seen.length;
    const res = await call(g.url, '/api/v1/_whoami?x=1', {
      headers: {
        authorization: `Bearer ${token}`,
        cookie: 'fh_session=nothing; other=1',
        'x-csrf-token': 'abc',
        'x-internal-user': 'forged',
        'x-user-id': '1',
        'x-gateway-secret': 'forged',
        'x-auth-user': 'forged',
        accept: 'application/json',
      },
    });
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({ data: { ok: true } });
    for (const h of HELMET) expect(res.headers[h], h).to.equal(ownHelmet[h]);
    expect(res.headers['x-powered-by']).to.equal(undefined);
    expect(res.headers['x-upstream']).to.equal('yes');
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    // No CORS without an Origin.
    expect(res.headers['access-control-allow-origin']).to.equal(undefined);
    expect(res.headers.vary).to.equal(undefined);
    const limits = values(res.raw, 'ratelimit');
    expect(limits).to.have.length(2);
    expect(limits[0]).to.match(/^"ip"; r=\d+; t=\d+$/);
    expect(limits[1]).to.match(/^"user"; r=\d+; t=\d+$/);
    expect(Number(/r=(\d+)/.exec(limits[1]!)![1])).to.be.within(0, 4);
    expect(values(res.raw, 'ratelimit-policy')).to.deep.equal([
      `"ip"; q=1000; w=3600; pk=:${pk('127.0.0.1')}:`,
      `"user"; q=5; w=3600; pk=:${pk(`u${userId}`)}:`,
    ]);
    // Nothing else: the exact set of header names. Not the service's `Keep-Alive` (a header of
    // the gateway's connection to it, RFC 9110 7.6.1); `Connection` is this client's (`close`,
    // as Node's client sends without an agent).
    expect(res.headers.connection).to.equal('close');
    expect(Object.keys(res.headers).sort()).to.deep.equal(
      [
        ...HELMET,
        'connection',
        'content-length',
        'content-type',
        'date',
        'ratelimit',
        'ratelimit-policy',
        'x-request-id',
        'x-upstream',
      ].sort(),
    );

    // What the service received.
    expect(upstream.seen.length).to.equal(before + 1);
    const seen = upstream.seen.at(-1)!;
    expect(seen.url).to.equal('/api/v1/_whoami?x=1');
    const h = seen.headers;
    expect(h.host).to.equal(new URL(upstream.url).host);
    expect(h['x-request-id']).to.equal(res.headers['x-request-id']);
    expect(h['x-forwarded-for']).to.equal('127.0.0.1');
    expect(h['x-forwarded-proto']).to.equal('http');
    expect(h['x-forwarded-port']).to.equal(new URL(g.url).port);
    expect(h['x-forwarded-host']).to.equal(new URL(g.url).host);
    expect(h.accept).to.equal('application/json');
    for (const gone of [
      'cookie',
      'x-csrf-token',
      'x-internal-user',
      'x-user-id',
      'x-gateway-secret',
      'x-auth-user',
    ])
      expect(h[gone], gone).to.equal(undefined);
    const internal = jwt.decode(String(h.authorization).replace(/^Bearer /, ''), { complete: true })!;
    expect(internal.header).to.include({ alg: 'ES256' });
    expect(internal.payload).to.include({
      aud: 'collection',
      sub: String(userId),
      amr: 'token',
      ip: '127.0.0.1',
      // a new account's address is not confirmed yet: nothing is granted to it by address
      email_verified: false,
    });
  });

  it('keeps a well-formed X-Request-Id and lets the service’s own security headers win', async () => {
    const res = await call(g.url, '/api/v1/own-csp', {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'abc-123.def' },
    });
    expect(res.status).to.equal(200);
    expect(res.headers['x-request-id']).to.equal('abc-123.def');
    expect(upstream.seen.at(-1)!.headers['x-request-id']).to.equal('abc-123.def');
    expect(res.headers['content-security-policy']).to.equal("default-src 'none'");
    expect(res.headers['x-frame-options']).to.equal(ownHelmet['x-frame-options']);
  });

  it('passes the service’s 404 through as it is', async () => {
    const res = await call(g.url, '/api/v1/missing', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(404);
    expect(res.headers['x-upstream']).to.equal('yes');
    expect(res.headers['x-frame-options']).to.equal(ownHelmet['x-frame-options']);
  });

  it('anonymous callers: only the per-IP RateLimit entry, and no Authorization but the internal JWT upstream', async () => {
    const res = await call(g.url, '/api/v1/_whoami');
    expect(res.status).to.equal(200);
    expect(values(res.raw, 'ratelimit')).to.have.length(1);
    expect(values(res.raw, 'ratelimit-policy')).to.deep.equal([
      `"ip"; q=1000; w=3600; pk=:${pk('127.0.0.1')}:`,
    ]);
    const internal = jwt.decode(String(upstream.seen.at(-1)!.headers.authorization).replace(/^Bearer /, ''));
    expect(internal).to.include({ aud: 'collection', amr: 'anonymous' });
    expect(internal).to.not.have.property('sub');
    expect(internal).to.not.have.property('email_verified');
  });

  it('a bad bearer token: 401 problem+json with helmet headers, X-Request-Id and the per-IP RateLimit', async () => {
    const res = await call(g.url, '/api/v1/_whoami', { headers: { authorization: 'Bearer 1|nope' } });
    expect(res.status).to.equal(401);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).to.include({ status: 401 });
    for (const h of HELMET) expect(res.headers[h], h).to.equal(ownHelmet[h]);
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(values(res.raw, 'ratelimit')).to.have.length(1);
    expect(values(res.raw, 'ratelimit')[0]).to.match(/^"ip"; r=\d+; t=\d+$/);
  });

  it('CORS on proxied routes: an allowed origin gets its headers, another origin none; preflights answered', async () => {
    const allowed = await call(g.url, '/api/v1/_whoami', {
      headers: { authorization: `Bearer ${token}`, origin: 'https://app.example.org' },
    });
    expect(allowed.status).to.equal(200);
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://app.example.org');
    expect(allowed.headers['access-control-allow-credentials']).to.equal('true');
    expect(allowed.headers['access-control-expose-headers']).to.equal(
      'X-Request-Id,Retry-After,RateLimit,RateLimit-Policy',
    );
    expect(allowed.headers.vary).to.equal('Origin');
    const other = await call(g.url, '/api/v1/_whoami', {
      headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example.org' },
    });
    expect(other.status).to.equal(200);
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    expect(other.headers.vary).to.equal(undefined);
    const seen = upstream.seen.length;
    const preflight = await call(g.url, '/api/v1/_whoami', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://app.example.org');
    expect(preflight.headers['access-control-allow-methods']).to.equal('GET,HEAD,PUT,PATCH,POST,DELETE');
    expect(preflight.headers['access-control-max-age']).to.equal('600');
    expect(preflight.headers['x-frame-options']).to.equal(ownHelmet['x-frame-options']);
    expect(upstream.seen.length).to.equal(seen); // answered by the gateway
  });

  it('the per-user limit: 429 problem+json with Retry-After and "user"; r=0', async () => {
    let res: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 10; i++) {
      res = await call(g.url, '/api/v1/_whoami', { headers: { authorization: `Bearer ${token}` } });
      if (res.status === 429) break;
      expect(res.status).to.equal(200);
    }
    expect(res!.status).to.equal(429);
    expect(res!.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(JSON.parse(res!.body)).to.include({ status: 429, code: 'rate_limited' });
    expect(Number(res!.headers['retry-after'])).to.be.within(1, 3600);
    const limits = values(res!.raw, 'ratelimit');
    expect(limits).to.have.length(2);
    expect(limits[1]).to.match(/^"user"; r=0; t=\d+$/);
    for (const h of HELMET) expect(res!.headers[h], h).to.equal(ownHelmet[h]);
  });

  it('a body over the limit: 413 problem+json made by the gateway, with helmet headers', async () => {
    const res = await call(g.url, '/api/v1/_whoami', {
      method: 'POST',
      headers: { 'content-length': String(50 * 1024 * 1024) },
    });
    expect(res.status).to.equal(413);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    for (const h of HELMET) expect(res.headers[h], h).to.equal(ownHelmet[h]);
  });

  it('an unreachable service: 502 problem+json naming it, with helmet headers', async () => {
    // Anonymous: this user spent its budget above.
    const res = await call(g.url, '/api/polls/abc');
    expect(res.status).to.equal(502);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.include('polls');
    expect(res.headers['x-frame-options']).to.equal(ownHelmet['x-frame-options']);
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });
});
