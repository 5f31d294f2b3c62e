import type { ErrorRequestHandler, Request, Response } from 'express';
import { ProblemError } from '@fieldhouse/problem';
import { appUserKeyOf, openRosaProjectOf } from './app-users.ts';

/**
 * The gateway's refusals on the OpenRosa routes in OpenRosa words (issue 35; docs/identity.md,
 * "App users"). ODK Collect shows its user the `<message>` of an `OpenRosaResponse`, and nothing
 * useful of a JSON problem document. So when the gateway itself refuses a request to an OpenRosa
 * route (the form list, a form or its manifest, the submission; `openRosaProjectOf`) — an app
 * user's key unknown, revoked or malformed (401), the rate limits (429, with `Retry-After`), a
 * body over `PROXY_BODY_LIMIT` (413), a scope refusal (403) — it answers, with the same status
 * and headers:
 *
 * ```xml
 * <?xml version="1.0" encoding="UTF-8"?>
 * <OpenRosaResponse xmlns="http://openrosa.org/http/response"><message nature="error">The problem's detail</message></OpenRosaResponse>
 * ```
 *
 * `Content-Type: text/xml; charset=utf-8`, `X-OpenRosa-Version: 1.0` and, on the submission route,
 * `X-OpenRosa-Accept-Content-Length` (the gateway's body limit, bytes). This is what the
 * collection service answers on the same routes (services/collection/src/http/openrosa-xml.ts),
 * so a client reads every refusal the same way whichever side refused.
 *
 * Who gets it: every request under an app user's server address (`/api/v1/key/{key}/...`: only
 * OpenRosa clients use it), and a request to an OpenRosa route carrying `X-OpenRosa-Version` (as
 * the OpenRosa HTTP standard requires and Collect and Enketo send); there a 401 also asks for
 * HTTP Basic credentials (`WWW-Authenticate`), as the service's does, so Collect asks its user to
 * sign in. Not under a key: the key is the credential, and a sign-in prompt could not fix it.
 * Other requests, and errors that are not problems, go on to the error middleware (a problem
 * document).
 */
export function openRosaRefusals(opts: { acceptContentLength: number }): ErrorRequestHandler {
  const answer = openRosaAnswer(opts);
  return (err: unknown, req, res, next) => {
    if (res.headersSent || !(err instanceof ProblemError) || !answer(req, res, err)) return next(err);
  };
}

/**
 * The same answer for a problem found outside Express's error chain: the proxy's own failures
 * to reach the collection service (502 `upstream_unavailable` or `bad_gateway`, 504
 * `upstream_timeout`; gateway/src/proxy/upstreams.ts `failureAnswer`), so that ODK Collect shows
 * "The collection service is unavailable..." rather than a JSON document. Returns false, having
 * written nothing, when the request is not an OpenRosa client's (the caller then answers a
 * problem document).
 */
export function openRosaAnswer(opts: {
  acceptContentLength: number;
}): (req: Request, res: Response, problem: ProblemError) => boolean {
  return (req, res, problem) => {
    if (!isOpenRosaClient(req)) return false;
    const underKey = appUserKeyOf(req) !== undefined;
    res.status(problem.status);
    for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
    res.setHeader('X-OpenRosa-Version', '1.0');
    if (req.path.endsWith('/submission'))
      res.setHeader('X-OpenRosa-Accept-Content-Length', String(opts.acceptContentLength));
    if (problem.status === 401 && !underKey)
      res.setHeader('WWW-Authenticate', 'Basic realm="Fieldhouse", charset="UTF-8"');
    res.type('text/xml; charset=utf-8').send(openRosaErrorXml(problem.message));
    return true;
  };
}

/** An OpenRosa route, under an app user's key or with the `X-OpenRosa-Version` header. */
function isOpenRosaClient(req: Request): boolean {
  if (openRosaProjectOf(req.path) === null) return false;
  return appUserKeyOf(req) !== undefined || req.headers['x-openrosa-version'] !== undefined;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * The `OpenRosaResponse` document of an error: `message` escaped (the five XML entities), and
 * characters XML 1.0 cannot hold (controls, lone surrogates) dropped.
 */
function openRosaErrorXml(message: string): string {
  const text = message
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<OpenRosaResponse xmlns="http://openrosa.org/http/response"><message nature="error">${text}</message></OpenRosaResponse>`
  );
}
