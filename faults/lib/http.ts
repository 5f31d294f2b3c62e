import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/** A parsed JSON body: the scenarios read the fields they know the API returns. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** An answer, or a failure to get one (`status` 0 with `error`: refused, reset, timeout). */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when not JSON). */
  body: Json;
  text: string;
  /** Time from sending to the end of the answer, in ms. */
  ms: number;
  error?: string;
}

/**
 * A small JSON client of the gateway (node:http, keep-alive pool): never rejects, a transport
 * failure or a timeout is an {@link Answer} with status 0.
 */
export class Api {
  private readonly agent: Agent;
  private readonly base: URL;
  private readonly opts: { token?: string; timeoutMs?: number; maxSockets?: number };

  constructor(baseUrl: string, opts: { token?: string; timeoutMs?: number; maxSockets?: number } = {}) {
    this.opts = opts;
    this.base = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
  }

  /** The same client acting as the holder of `token`. */
  as(token: string): Api {
    return new Api(this.base.toString(), { ...this.opts, token });
  }

  /** Sends one request; `body` is sent as JSON (or as is, when a string with its content-type). */
  send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    timeoutMs = this.opts.timeoutMs ?? 10_000,
  ): Promise<Answer> {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return new Promise((resolve) => {
      const done = (a: Omit<Answer, 'ms'>) => resolve({ ...a, ms: performance.now() - t0 });
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            ...(payload !== undefined && typeof body !== 'string'
              ? { 'content-type': 'application/json' }
              : {}),
            ...(this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) =>
            done({ status: 0, headers: {}, body: undefined, text: '', error: err.message }),
          );
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = undefined;
            }
            done({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
          });
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (err) =>
        done({ status: 0, headers: {}, body: undefined, text: '', error: err.message }),
      );
      req.end(payload);
    });
  }

  get = (path: string, headers?: Record<string, string>) => this.send('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.send('POST', path, body ?? {}, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.send('PUT', path, body ?? {}, headers);

  /** Sends and throws unless the status is `expected`; resolves with the JSON body. */
  async expect(
    status: number,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Json> {
    const a = await this.send(method, path, body, headers);
    if (a.status !== status)
      throw new Error(
        `${method} ${path}: expected ${status}, got ${a.status} ${a.error ?? a.text.slice(0, 300)}`,
      );
    return a.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
