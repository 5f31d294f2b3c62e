import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Identity } from '../identity/identity.ts';
import type { SigningKey } from './signing-key.ts';

export interface InternalTokenSettings {
  key: SigningKey;
  issuer: string;
  ttlSeconds: number;
}

/**
 * Signs the short-lived ES256 JWT forwarded to a service (design.md, phantom-token pattern):
 * `aud` the service, `iss`, `sub`/`name`/`email`/`email_verified` for a signed-in user (none for
 * anonymous; `email_verified` true only once the address was confirmed by its e-mailed link, so a
 * service grants nothing by address, such as an invitation, to an unproven one),
 * `tid` the token id, `dev` the scanner device (`{id, evt, scope: "checkin"}`, with `amr: "device"`),
 * `apu` the app user (`{id, prj}`: its project, with `amr: "app_user"` and no `sub`: an app user
 * is not a user),
 * `amr` how the caller authenticated (`gateway` for the gateway's own calls), `ip` the client
 * address, `jti`, `exp`.
 */
export function signInternalToken(
  s: InternalTokenSettings,
  audience: string,
  identity: Identity | { method: 'gateway'; user: null },
  ip: string | undefined,
): string {
  const claims: Record<string, unknown> = { amr: identity.method };
  if (identity.user) {
    claims.sub = String(identity.user.id);
    claims.name = identity.user.name;
    claims.email = identity.user.email;
    claims.email_verified = identity.user.emailVerified;
  }
  if ('tokenId' in identity && identity.tokenId !== undefined) claims.tid = identity.tokenId;
  if ('device' in identity && identity.device)
    claims.dev = { id: identity.device.id, evt: identity.device.eventId, scope: 'checkin' };
  if ('appUser' in identity && identity.appUser)
    claims.apu = { id: identity.appUser.id, prj: identity.appUser.projectId };
  if (ip) claims.ip = ip;
  return jwt.sign(claims, s.key.privateKey, {
    algorithm: 'ES256',
    keyid: s.key.kid,
    issuer: s.issuer,
    audience,
    expiresIn: s.ttlSeconds,
    jwtid: randomUUID(),
  });
}

/**
 * Reuses a signed internal JWT for the same caller (user and their address and its verification,
 * token, method, IP) and service for
 * half its lifetime, so the gateway signs and each service verifies once per caller every few
 * seconds rather than on every request. The caller's credentials are still checked on every
 * request before this is asked for a JWT. `jti` therefore names a token, not a request.
 */
export class InternalTokenIssuer {
  private readonly settings: InternalTokenSettings;
  private readonly reuseMs: number;
  private readonly cache = new Map<string, { jwt: string; until: number }>();
  private readonly maxEntries: number;

  constructor(settings: InternalTokenSettings, maxEntries = 50_000) {
    this.settings = settings;
    this.reuseMs = (settings.ttlSeconds * 1000) / 2;
    this.maxEntries = maxEntries;
  }

  /** A JWT for `audience` describing `identity`, signed now or reused while fresh. */
  tokenFor(audience: string, identity: Identity, ip: string | undefined): string {
    const user = identity.user;
    const key = `${audience}|${identity.method}|${user?.id ?? ''}|${user?.email ?? ''}|${user?.emailVerified ?? ''}|${identity.tokenId ?? ''}|${identity.device?.id ?? ''}|${identity.appUser?.id ?? ''}|${ip ?? ''}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.jwt;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    const jwt = signInternalToken(this.settings, audience, identity, ip);
    this.cache.set(key, { jwt, until: now + this.reuseMs });
    return jwt;
  }
}
