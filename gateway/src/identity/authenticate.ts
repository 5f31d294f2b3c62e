import type { Request, RequestHandler } from 'express';
import { logContext, type Logger } from '@fieldhouse/logger';
import { forbidden, unauthenticated } from '@fieldhouse/problem';
import {
  sameHash,
  hashSecret,
  parseDeviceCredential,
  parseToken,
  DEVICE_CREDENTIAL_PREFIX,
} from './token-format.ts';
import type { TokensRepo } from './tokens-repo.ts';
import type { DeviceCredentialRow, DeviceCredentialsRepo } from './device-credentials-repo.ts';
import type { TokenCache } from './token-cache.ts';
import type { SessionsRepo } from './sessions-repo.ts';
import { appUserKeyOf, openRosaProjectOf, type AppUserResolver } from './app-users.ts';
import { timingSafeEqual } from 'node:crypto';
import type { Identity } from './identity.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ANONYMOUS: Identity = { user: null, method: 'anonymous' };

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The CSRF token a client echoed, from `X-CSRF-TOKEN` or `X-XSRF-TOKEN`. */
function csrfHeader(req: Request): string | undefined {
  const v = req.headers['x-csrf-token'] ?? req.headers['x-xsrf-token'];
  return typeof v === 'string' ? v : undefined;
}

export interface AuthenticateDeps {
  tokens: TokensRepo;
  devices: DeviceCredentialsRepo;
  tokenCache: TokenCache;
  sessions: SessionsRepo;
  sessionCookie: string;
  logger: Logger;
  /** Authenticates the key of an app user's path (app-users.ts). */
  appUsers: AppUserResolver;
}

/**
 * Establishes `req.identity` for every request (design.md, "Identity lives in the gateway"):
 * - `Authorization: Bearer <id>|<secret>`: the token must be well-formed (checksum), exist,
 *   match by SHA-256 in constant time and not be expired, else 401. Lookups are cached for a
 *   few seconds by {@link TokenCache}, which revocation evicts on every replica at once.
 *   No CSRF header needed.
 * - `Authorization: Bearer fhd_<id>|<secret>`: a scanner device's credential, checked the same
 *   way (lookups cached for a minute: whether the device is revoked is checked by the events
 *   service on every request); the caller is the device, with no user.
 * - an app user's key, taken out of the path by the listener (`/api/v1/key/{key}/...`,
 *   app-users.ts): checked by the collection service (cached), whatever else the request holds;
 *   the caller is the app user, with no user.
 * - `Authorization: Basic` on an OpenRosa route (`/api/v1/projects/{id}/formList`, ...): the
 *   password is a personal access token, checked as a bearer token (ODK Collect's user and
 *   password settings); the user name is not read.
 * - any other `Authorization` scheme: 401.
 * - else the session cookie: a live session makes the caller its user (or a guest); unsafe
 *   methods must then echo the session's CSRF token in `X-CSRF-TOKEN` or `X-XSRF-TOKEN`, else 403.
 * - else anonymous.
 */
export function authenticate(deps: AuthenticateDeps): RequestHandler {
  const deviceCache = new Map<number, { row: DeviceCredentialRow; until: number }>();
  const resolveDevice = async (raw: string): Promise<Identity> => {
    const parsed = parseDeviceCredential(raw);
    if (!parsed) throw unauthenticated();
    const now = Date.now();
    const cached = deviceCache.get(parsed.id);
    let row = cached && cached.until > now ? cached.row : undefined;
    if (!row) {
      row = await deps.devices.findForAuth(parsed.id);
      if (deviceCache.size >= 10_000) deviceCache.clear();
      if (row) deviceCache.set(parsed.id, { row, until: now + 60_000 });
      else deviceCache.delete(parsed.id);
    }
    if (!row || !sameHash(row.token_hash, hashSecret(parsed.secret))) throw unauthenticated();
    if (!row.last_used_at || now - row.last_used_at.getTime() > 60_000) {
      row.last_used_at = new Date(now);
      deps.devices
        .touch(row.id)
        .catch((err: unknown) => deps.logger.warn('could not record device credential use', { err }));
    }
    return {
      user: null,
      method: 'device',
      device: { id: row.device_id, name: row.device_name, eventId: row.event_id },
    };
  };
  const resolveToken = async (value: string | undefined): Promise<Identity> => {
    const parsed = value ? parseToken(value) : null;
    if (!parsed) throw unauthenticated();
    let row = deps.tokenCache.get(parsed.id);
    if (!row) {
      row = await deps.tokens.findForAuth(parsed.id);
      if (row) deps.tokenCache.set(row);
    }
    if (!row || !sameHash(row.token_hash, hashSecret(parsed.secret))) throw unauthenticated();
    if (row.expires_at && row.expires_at.getTime() <= Date.now())
      throw unauthenticated('The token has expired.');
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
      row.last_used_at = new Date(); // the cached row too, so the next minute skips the write
      deps.tokens
        .touch(row.id)
        .catch((err: unknown) => deps.logger.warn('could not record token use', { err }));
    }
    return {
      user: {
        id: row.user_id,
        name: row.user_name,
        email: row.user_email,
        emailVerified: row.user_email_verified,
      },
      method: 'token',
      tokenId: row.id,
    };
  };
  const resolve = async (req: Request): Promise<Identity> => {
    const key = appUserKeyOf(req);
    if (key !== undefined) {
      const appUser = await deps.appUsers(key, req.ip);
      return { user: null, method: 'app_user', appUser: { ...appUser, basePath: `/api/v1/key/${key}` } };
    }
    const header = req.headers.authorization;
    if (header !== undefined) {
      const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
      if (basic && openRosaProjectOf(req.path) !== null) {
        const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        return resolveToken(colon >= 0 ? decoded.slice(colon + 1) : undefined);
      }
      const match = /^Bearer\s+(.+)$/i.exec(header);
      const value = match?.[1]!.trim();
      if (value?.startsWith(DEVICE_CREDENTIAL_PREFIX)) return resolveDevice(value);
      return resolveToken(value);
    }
    const cookie: unknown = req.cookies?.[deps.sessionCookie];
    if (typeof cookie !== 'string' || cookie.length === 0 || cookie.length > 100) return ANONYMOUS;
    const session = await deps.sessions.find(cookie);
    if (!session) return ANONYMOUS;
    if (!SAFE_METHODS.has(req.method)) {
      const echoed = csrfHeader(req);
      if (!echoed || !sameString(echoed, session.csrf_token)) {
        throw forbidden('CSRF token mismatch: send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.', {
          code: 'csrf_token_mismatch',
        });
      }
    }
    if (Date.now() - session.last_activity_at.getTime() > 60_000) {
      deps.sessions
        .touch(session.id_hash)
        .catch((err: unknown) => deps.logger.warn('could not touch session', { err }));
    }
    return {
      user:
        session.user_id !== null
          ? {
              id: session.user_id,
              name: session.user_name!,
              email: session.user_email!,
              emailVerified: session.user_email_verified === true,
            }
          : null,
      method: session.user_id !== null ? 'session' : 'anonymous',
      sessionIdHash: session.id_hash,
      csrfToken: session.csrf_token,
    };
  };

  return (req, _res, next) => {
    resolve(req).then((identity) => {
      req.identity = identity;
      const ctx = logContext.getStore();
      if (ctx && identity.user) ctx.userId = identity.user.id;
      next();
    }, next);
  };
}

/** 401 unless a user is signed in; use after {@link authenticate}. */
export const requireSignedIn: RequestHandler = (req, _res, next) => {
  next(req.identity?.user ? undefined : unauthenticated());
};

/**
 * 403 `device_scope` for a scanner device's credential: placed on every app but the events
 * service's proxy, where the service itself enforces the device's scope.
 */
export const refuseDevices: RequestHandler = (req, _res, next) => {
  next(
    req.identity?.method === 'device'
      ? forbidden('A scanner device credential only works for the check-in work of its event.', {
          code: 'device_scope',
        })
      : undefined,
  );
};
