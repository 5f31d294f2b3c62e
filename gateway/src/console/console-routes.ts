import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import compression from 'compression';
import express, { Router, type Response } from 'express';
import { withFrameAncestors, type EmbedOrigins } from './embed-origins.ts';

/** Paths that belong to the APIs and the gateway itself, never to the console's client routes. */
const NOT_CONSOLE = /^\/(?:api|docs|sanctum|\.well-known|healthz|readyz|metrics)(?:\/|$)/i;

/** `/p/{poll_id}/embed`: a poll's embed page, the one page other sites may frame. */
const EMBED = /^\/p\/([^/]+)\/embed\/?$/;

/** One year: hashed assets never change under their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web console (docs/console.md), served from `dir` (Vite's `console/dist`) on the gateway's
 * origin:
 * - `/assets/*` (content-hashed names): `Cache-Control: public, max-age=31536000, immutable`,
 *   gzip-compressed when the browser accepts it (the `compression` middleware, on these paths only);
 * - other files of `dir` (favicon...): revalidated on each use;
 * - any other GET/HEAD that accepts `text/html` and is not an API, `/docs` or operational path:
 *   `index.html` with `Cache-Control: no-cache`, so a new deployment is picked up at the next
 *   navigation and client routes (`/polls`, `/p/{poll_id}`...) survive a reload. Every page
 *   keeps helmet's refusal to be framed by other sites (`frame-ancestors 'self'`,
 *   `X-Frame-Options: SAMEORIGIN`) except a poll's embed page, `/p/{poll_id}/embed`, whose
 *   `frame-ancestors` also names the origins the poll's `embed_origins` setting allows (`embedOrigins`:
 *   asked of the polls service; without it, or when it cannot tell, the refusal stays) and which
 *   drops `X-Frame-Options` then (docs/polls.md, "Embedding").
 *
 * Anything else falls through to the gateway's 404 problem. Throws at start-up when `dir` has
 * no `index.html` (a console that was not built).
 */
export function consoleRoutes(dir: string, embedOrigins?: EmbedOrigins): Router {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile))
    throw new Error(
      `CONSOLE_DIR=${dir} has no index.html: build the console (npm run build -w @fieldhouse/console)`,
    );
  const indexHtml = readFileSync(indexFile);
  const router = Router();
  // gzip for the console's files only (never on API answers that pass through this router).
  const compress = compression();
  router.use(
    '/assets',
    compress,
    express.static(join(dir, 'assets'), {
      index: false,
      fallthrough: true,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
  );
  router.use(express.static(dir, { index: false, maxAge: 0, dotfiles: 'ignore' }));
  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_CONSOLE.test(req.path) || !req.accepts('html'))
      return next();
    if (req.path.startsWith('/assets/')) return next();
    const send = () =>
      compress(req, res, () => {
        res.setHeader('Cache-Control', 'no-cache');
        res.type('html').send(indexHtml);
      });
    const embed = embedOrigins ? EMBED.exec(req.path) : null;
    if (!embed) return send();
    let pollId: string;
    try {
      pollId = decodeURIComponent(embed[1]!);
    } catch {
      return send();
    }
    embedOrigins!(pollId).then(
      (origins) => {
        if (origins?.length) allowFraming(res, origins);
        send();
      },
      () => send(),
    );
  });
  return router;
}

/** Lets `origins` frame this answer (helmet's CSP with their `frame-ancestors`, no `X-Frame-Options`). */
function allowFraming(res: Response, origins: readonly string[]): void {
  const policy = res.getHeader('Content-Security-Policy');
  res.setHeader(
    'Content-Security-Policy',
    withFrameAncestors(typeof policy === 'string' ? policy : '', origins),
  );
  res.removeHeader('X-Frame-Options');
}
