import { expect } from 'chai';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { rateLimit, type AugmentedRequest } from 'express-rate-limit';
import request from 'supertest';
import { testLogger } from '@fieldhouse/testkit';
import { chain } from '../src/proxy/chain.ts';
import { securityHeaders, staticHelmet } from '../src/proxy/security-headers.ts';
import { countEveryRequest } from '../src/request-limiter.ts';
import { WriteBehindRedisStore } from '../src/rate-limit-store.ts';
import helmet from 'helmet';

/** An app around `handlers`, answering 200 `ok`, errors as `<status> <message>`. */
function appOf(handlers: RequestHandler[]) {
  const app = express();
  app.disable('x-powered-by');
  app.use(...handlers);
  app.use((_req, res) => void res.send('ok'));
  const onError: ErrorRequestHandler = (err: { status?: number; message?: string }, _req, res, _next) =>
    void res.status(err.status ?? 500).send(`${err.status ?? 500} ${err.message ?? ''}`);
  app.use(onError);
  return app;
}

describe('gateway: the proxied path’s lean middleware does what the general one did (issue #21)', () => {
  describe('chain()', () => {
    const tag =
      (name: string): RequestHandler =>
      (_req, res, next) => {
        res.append('X-Seen', name);
        next();
      };

    it('runs handlers in order and then leaves the chain', async () => {
      const res = await request(appOf([chain([tag('a'), tag('b')]), tag('c')])).get('/');
      expect(res.text).to.equal('ok');
      expect(res.headers['x-seen']).to.equal('a, b, c');
    });

    it('passes next(err), a thrown error and a rejected promise to the error handlers, skipping the rest', async () => {
      const boom = Object.assign(new Error('boom'), { status: 418 });
      for (const failing of [
        ((_q, _s, next) => next(boom)) as RequestHandler,
        (() => {
          throw boom;
        }) as RequestHandler,
        (async () => {
          await Promise.resolve();
          throw boom;
        }) as RequestHandler,
      ]) {
        const res = await request(appOf([chain([tag('a'), failing, tag('b')]), tag('c')])).get('/');
        expect(res.status).to.equal(418);
        expect(res.text).to.equal('418 boom');
        expect(res.headers['x-seen']).to.equal('a');
      }
    });

    it('waits for a handler that calls next later', async () => {
      const later: RequestHandler = (_req, _res, next) => void setTimeout(() => next(), 5);
      const res = await request(appOf([chain([later, tag('a')])])).get('/');
      expect(res.headers['x-seen']).to.equal('a');
    });
  });

  describe('staticHelmet()', () => {
    for (const options of [
      undefined,
      { contentSecurityPolicy: { directives: { imgSrc: ["'self'", 'data:', 'https://s3.example.org'] } } },
    ]) {
      it(`sets exactly helmet’s headers (${options ? 'widened CSP' : 'defaults'})`, async () => {
        const [a, b] = await Promise.all([
          request(appOf([helmet(options)])).get('/x?y=1'),
          request(appOf([staticHelmet(options)])).get('/x?y=1'),
        ]);
        const strip = (h: Record<string, string>) => {
          const { date: _d, etag: _e, ...rest } = h;
          return rest;
        };
        expect(strip(b.headers)).to.deep.equal(strip(a.headers));
      });
    }

    it('falls back to helmet itself when its headers depend on the request', () => {
      const nonce = staticHelmet({
        contentSecurityPolicy: {
          directives: { scriptSrc: ["'self'", (req) => `'nonce-${String((req as { url?: string }).url)}'`] },
        },
      });
      const headers: Record<string, string> = {};
      const res = {
        setHeader: (n: string, v: string) => (headers[n.toLowerCase()] = v),
        removeHeader: () => undefined,
      };
      (nonce as unknown as (q: unknown, s: unknown, n: () => void) => void)(
        { url: '/z', method: 'GET', headers: {} },
        res,
        () => undefined,
      );
      expect(headers['content-security-policy']).to.include("'nonce-/z'");
    });
  });

  describe('securityHeaders() (helmet’s headers when the head is written)', () => {
    const strip = (h: Record<string, string>) => {
      const { date: _d, etag: _e, ...rest } = h;
      return rest;
    };
    const answers: Array<[string, RequestHandler]> = [
      ['a plain answer', (_req, res) => void res.send('ok')],
      [
        'headers set by a later handler',
        (_req, res) =>
          void res
            .set('X-Frame-Options', 'DENY')
            .set('Content-Security-Policy', "default-src 'none'")
            .send('ok'),
      ],
      [
        'headers given to writeHead',
        (_req, res) => {
          res.writeHead(201, { 'x-frame-options': 'DENY', 'content-type': 'text/plain' });
          res.end('made');
        },
      ],
      ['an implicit head (end only)', (_req, res) => void res.end()],
      ['an error answer', (_req, _res, next) => next(Object.assign(new Error('no'), { status: 401 }))],
    ];
    for (const [what, answer] of answers) {
      it(`gives the headers helmet gives: ${what}`, async () => {
        const [a, b] = await Promise.all([
          request(appOf([helmet(), answer])).get('/'),
          request(appOf([securityHeaders(), answer])).get('/'),
        ]);
        expect(b.status).to.equal(a.status);
        expect(strip(b.headers)).to.deep.equal(strip(a.headers));
      });
    }
  });

  describe('countEveryRequest() against express-rate-limit', () => {
    /** A store that writes behind to a fake Redis whose totals are what it was sent. */
    const store = () => {
      const redis = new Map<string, number>();
      return new WriteBehindRedisStore({
        sendCommand: async (args) => {
          if (args[0] === 'INCRBY') {
            const total = (redis.get(args[1]!) ?? 0) + Number(args[2]);
            redis.set(args[1]!, total);
            return total;
          }
          return 1;
        },
        prefix: 'rl:',
        syncMs: 50,
        onFailure: () => undefined,
      });
    };
    const handler = (req: express.Request, _res: express.Response, next: (err: unknown) => void) => {
      const reset = (req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? 0;
      const retryAfter = Math.max(1, Math.ceil((reset - Date.now()) / 1000));
      next(Object.assign(new Error(`retry after ${retryAfter}`), { status: 429 }));
    };
    const userKey = (req: express.Request) => req.headers['x-user'] as string | undefined;
    const reference = () =>
      appOf([
        rateLimit({
          windowMs: 3_600_000,
          limit: 5,
          standardHeaders: 'draft-8',
          legacyHeaders: false,
          passOnStoreError: true,
          store: store(),
          handler,
          identifier: 'ip',
          validate: false,
        }),
        rateLimit({
          windowMs: 3_600_000,
          limit: 3,
          standardHeaders: 'draft-8',
          legacyHeaders: false,
          passOnStoreError: true,
          store: store(),
          handler,
          identifier: 'user',
          skip: (req) => !userKey(req),
          keyGenerator: (req) => userKey(req)!,
          validate: false,
        }),
      ]);
    const lean = () => {
      const logger = testLogger('rate-limit');
      return appOf([
        countEveryRequest({
          identifier: 'ip',
          limit: 5,
          windowMs: 3_600_000,
          store: store(),
          key: (req) => req.ip!,
          handler,
          logger,
        }),
        countEveryRequest({
          identifier: 'user',
          limit: 3,
          windowMs: 3_600_000,
          store: store(),
          key: userKey,
          handler,
          logger,
        }),
      ]);
    };

    it('gives the same statuses, RateLimit, RateLimit-Policy and Retry-After headers, request by request', async () => {
      const [a, b] = [reference(), lean()];
      const sequence = ['u1', 'u1', undefined, 'u1', 'u1', 'u2', 'u2', undefined];
      for (const [i, user] of sequence.entries()) {
        const send = (app: express.Express) => {
          const r = request(app).get('/');
          return user ? r.set('x-user', user) : r;
        };
        const [x, y] = [await send(a), await send(b)];
        // The seconds to the window's end (`t=`, Retry-After) are compared apart: the two windows
        // start a request apart, so on a busy machine they may read one second off.
        const seconds = (r: request.Response) => [
          ...[...String(r.headers['ratelimit'] ?? '').matchAll(/t=(\d+)/g)].map((m) => Number(m[1])),
          ...(r.headers['retry-after'] === undefined ? [] : [Number(r.headers['retry-after'])]),
        ];
        const pick = (r: request.Response) => ({
          status: r.status,
          text: r.text,
          ratelimit: String(r.headers['ratelimit'] ?? '').replace(/t=\d+/g, 't=…'),
          policy: r.headers['ratelimit-policy'],
          retryAfter: r.headers['retry-after'] === undefined,
        });
        const what = `request ${i} (${String(user)})`;
        expect(pick(y), what).to.deep.equal(pick(x));
        const [sx, sy] = [seconds(x), seconds(y)];
        expect(sy.length, what).to.equal(sx.length);
        sy.forEach((v, k) => expect(Math.abs(v - sx[k]!), `${what}: seconds left`).to.be.at.most(1));
      }
    });
  });
});
