import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { forbidden, ProblemError, unauthenticated, type FieldErrors } from '@fieldhouse/problem';
import { signInternalToken, type InternalTokenSettings } from '../proxy/internal-token.ts';
import { upstreamProblem } from '../proxy/upstream-problem.ts';

/**
 * App users (issue 35; docs/identity.md, "App users"): ODK Collect and Enketo are set up with a
 * server address holding a key, `<origin>/api/v1/key/{key}/projects/{project_id}` (ODK Central's
 * shape). The collection service issues and stores the keys (as SHA-256); the gateway takes the
 * key out of the path before anything logs the request, authenticates it by asking the service
 * (cached briefly), and forwards the request as the app user.
 */

/** `/api/v1/key/{key}` and the rest of the path. */
const KEY_PATH = /^\/api\/v1\/key\/([^/?]*)(\/[^?]*)?(\?.*)?$/;

/** The OpenRosa routes under a project (the only ones an app user may reach, and the only ones taking HTTP Basic). */
const OPENROSA_PATH =
  /^\/api\/v1\/projects\/([1-9][0-9]{0,9})\/(?:formList|submission|forms\/[^/]+(?:\.xml|\/manifest))$/;

/** The project of an OpenRosa path (no query), or null for any other path. */
export function openRosaProjectOf(path: string): number | null {
  const m = OPENROSA_PATH.exec(path);
  return m ? Number(m[1]) : null;
}

/** The key taken out of each request's path (the request itself never holds it again). */
const keys = new WeakMap<IncomingMessage, string>();

/**
 * Takes the key out of an app user's path, `/api/v1/key/{key}/rest?query` becoming
 * `/api/v1/rest?query`, so that every later step (the access log, metrics, errors, the proxied
 * request) sees the path without it. Called by the listener before any app runs.
 * @returns whether the path was an app user's.
 */
export function takeAppUserKey(req: IncomingMessage): boolean {
  if (!req.url?.startsWith('/api/v1/key/')) return false;
  const m = KEY_PATH.exec(req.url);
  if (!m) return false;
  // Keys are letters and digits: anything else (escaped or not) fails the key's shape later.
  keys.set(req, m[1]!);
  req.url = `/api/v1${m[2] ?? '/'}${m[3] ?? ''}`;
  return true;
}

/** The key {@link takeAppUserKey} took from this request's path, if any. */
export const appUserKeyOf = (req: IncomingMessage): string | undefined => keys.get(req);

/** The app user of a key, as the collection service answers it. */
interface AppUserIdentity {
  id: number;
  projectId: number;
  displayName: string;
}

/** Authenticates an app user key, or throws the 401 to answer. */
export type AppUserResolver = (key: string, ip: string | undefined) => Promise<AppUserIdentity>;

const KEY_SHAPE = /^[A-Za-z0-9]{40}[0-9a-f]{8}$/;

/**
 * Asks the collection service (`POST /api/v1/app-users/authenticate`, as the gateway itself:
 * `amr: "gateway"`) which app user a key is. Keys of the wrong shape are refused before any call;
 * answers are kept for `cacheMs` per key (by its SHA-256): a revoked key may pass here for that
 * long, and the service refuses it on the very request (it checks every app user request).
 * @throws ProblemError 401 (the service's detail: unknown or revoked), 502/504 service down.
 */
export function appUserResolver(opts: {
  collectionUrl: string;
  settings: InternalTokenSettings;
  timeoutMs: number;
  cacheMs?: number;
}): AppUserResolver {
  const url = new URL('/api/v1/app-users/authenticate', opts.collectionUrl).href;
  const cacheMs = opts.cacheMs ?? 30_000;
  const cache = new Map<string, { user: AppUserIdentity; until: number }>();
  return async (key, ip) => {
    if (!KEY_SHAPE.test(key)) throw unauthenticated('This server address holds no valid app user key.');
    const hash = createHash('sha256').update(key).digest('hex');
    const now = Date.now();
    const hit = cache.get(hash);
    if (hit && hit.until > now) return hit.user;
    const jwt = signInternalToken(opts.settings, 'collection', { method: 'gateway', user: null }, ip);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${jwt}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ key }),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause ?? {};
      throw upstreamProblem('collection', cause, (err as Error).name === 'TimeoutError');
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 200) {
      const user = {
        id: Number(body.id),
        projectId: Number(body.project_id),
        displayName: String(body.display_name),
      };
      if (cache.size >= 10_000) cache.clear();
      cache.set(hash, { user, until: now + cacheMs });
      return user;
    }
    cache.delete(hash);
    if (res.status >= 500 || typeof body.detail !== 'string') throw upstreamProblem('collection', {}, false);
    throw new ProblemError(res.status, body.detail, {
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
      ...(body.errors ? { errors: body.errors as FieldErrors } : {}),
    });
  };
}

/**
 * 403 `app_user_scope` for an app user anywhere but the OpenRosa routes of its own project (the
 * form list, the form and its manifest, the submission): placed after authentication on every
 * app. The collection service checks the same on its side.
 */
export const appUserScope: RequestHandler = (req, _res, next) => {
  const appUser = req.identity?.appUser;
  if (!appUser) return next();
  next(
    openRosaProjectOf(req.path) === appUser.projectId
      ? undefined
      : forbidden('An app user may only download its project’s form and send submissions to it.', {
          code: 'app_user_scope',
        }),
  );
};
