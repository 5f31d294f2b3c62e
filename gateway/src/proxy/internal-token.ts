import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Identity } from '../identity/authenticate.ts';
import type { SigningKey } from './signing-key.ts';

export interface InternalTokenSettings {
  key: SigningKey;
  issuer: string;
  ttlSeconds: number;
}

/**
 * Signs the short-lived ES256 JWT forwarded to a service (design.md, phantom-token pattern):
 * `aud` the service, `iss`, `sub`/`name`/`email` for a signed-in user (none for anonymous),
 * `tid` the token id, `amr` how the caller authenticated, `ip` the client address, `jti`, `exp`.
 */
export function signInternalToken(
  s: InternalTokenSettings,
  audience: string,
  identity: Identity,
  ip: string | undefined,
): string {
  const claims: Record<string, unknown> = { amr: identity.method };
  if (identity.user) {
    claims.sub = String(identity.user.id);
    claims.name = identity.user.name;
    claims.email = identity.user.email;
  }
  if (identity.tokenId !== undefined) claims.tid = identity.tokenId;
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
