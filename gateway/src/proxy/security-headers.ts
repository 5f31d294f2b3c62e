import { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The headers helmet sets with `options`, in order (`null`: a header it removes), when they are
 * the same for every request (no function in the CSP, no nonce) and helmet finishes
 * synchronously; else undefined.
 */
function helmetHeaders(options?: Parameters<typeof helmet>[0]): Array<[string, string | null]> | undefined {
  const middleware = helmet(options) as unknown as (
    q: unknown,
    s: unknown,
    n: (err?: unknown) => void,
  ) => void;
  const record = (url: string) => {
    const ops: Array<[string, string | null]> = [];
    let done = false;
    const res = {
      setHeader: (name: string, value: unknown) => void ops.push([name, String(value)]),
      removeHeader: (name: string) => void ops.push([name, null]),
    };
    middleware({ method: 'GET', url, headers: {} }, res, (err) => (done = err === undefined));
    return done ? JSON.stringify(ops) : undefined;
  };
  const first = record('/a');
  if (first === undefined || first !== record('/b?x=1')) return undefined;
  return JSON.parse(first) as Array<[string, string | null]>;
}

/**
 * helmet's middleware replayed from the list of headers it sets (see {@link helmetHeaders}):
 * computing them (the CSP string above all) is most of helmet's cost. Falls back to helmet
 * itself when its headers depend on the request.
 */
export function staticHelmet(options?: Parameters<typeof helmet>[0]): RequestHandler {
  const ops = helmetHeaders(options);
  return ops ? replay(ops) : helmet(options);
}

/** Sets and removes the headers of `ops`, in order, on every answer. */
function replay(ops: Array<[string, string | null]>): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of ops) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

const writeHeadOf = ServerResponse.prototype.writeHead;

/**
 * helmet's headers on the proxied path, set when the answer's head is written rather than
 * when the request comes in, and only those the answer does not carry yet. A service behind
 * the gateway sends the same headers itself (its own helmet), which httpxy copies onto the
 * answer and which used to replace the gateway's anyway; setting them twice was a dozen
 * validated `setHeader` calls per request for nothing. The result is the one of helmet first:
 * every header helmet sets, unless something later (the service's answer, a `writeHead` with
 * headers) set its own value. Answers the gateway makes itself (401, 429, 502, 504, 404,
 * preflights, event streams) all go through `writeHead` too, so they get all of them.
 * Headers helmet removes are removed at once, as helmet does. When helmet's headers depend
 * on the request, or `writeHead` is not Node's, helmet itself runs.
 */
export function securityHeaders(options?: Parameters<typeof helmet>[0]): RequestHandler {
  const ops = helmetHeaders(options);
  if (!ops) return helmet(options);
  const removed = ops.filter(([, v]) => v === null).map(([name]) => name);
  const set = ops.filter((op): op is [string, string] => op[1] !== null);
  const eager = replay(ops);
  function writeHead(this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    for (const [name, value] of set) if (!this.hasHeader(name)) this.setHeader(name, value);
    return writeHeadOf.apply(this, args);
  }
  return (req, res, next) => {
    if (res.writeHead !== writeHeadOf) return eager(req, res, next);
    for (const name of removed) res.removeHeader(name);
    (res as ServerResponse).writeHead = writeHead as ServerResponse['writeHead'];
    next();
  };
}
