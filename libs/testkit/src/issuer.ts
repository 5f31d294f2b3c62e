import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { staticKeyResolver, type InternalClaims, type KeyResolver } from '@fieldhouse/internal-auth';

export interface TestIssuer {
  issuer: string;
  kid: string;
  privateKey: KeyObject;
  keys: KeyResolver;
  /** Signs an internal JWT for `audience` as the gateway would; `user` absent means anonymous. */
  sign: (
    audience: string,
    user?: { id: number; name?: string; email?: string },
    extra?: Partial<InternalClaims>,
  ) => string;
}

/** A stand-in for the gateway's signing key, for service tests that do not start the gateway. */
export function createTestIssuer(issuer = 'fieldhouse-gateway'): TestIssuer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `test-${randomUUID()}`;
  return {
    issuer,
    kid,
    privateKey,
    keys: staticKeyResolver({ [kid]: publicKey }),
    sign: (audience, user, extra = {}) =>
      jwt.sign(
        {
          amr: user ? 'token' : 'anonymous',
          ...(user
            ? {
                sub: String(user.id),
                name: user.name ?? `User ${user.id}`,
                email: user.email ?? `user${user.id}@example.test`,
              }
            : {}),
          ip: '127.0.0.1',
          ...extra,
        },
        privateKey,
        { algorithm: 'ES256', keyid: kid, issuer, audience, expiresIn: 60, jwtid: randomUUID() },
      ),
  };
}
