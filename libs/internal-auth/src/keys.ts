import { createPublicKey, type KeyObject } from 'node:crypto';
import { JwksClient } from 'jwks-rsa';

/** Finds the public key for a JWT `kid`; rejects when the kid is unknown. */
export type KeyResolver = (kid: string | undefined) => Promise<KeyObject>;

/**
 * Resolves keys from the gateway's JWKS (`/.well-known/jwks.json`) through jwks-rsa, which
 * caches keys and rate-limits refetches for unknown kids. Parsed keys are kept per kid so
 * the hot path costs one map lookup.
 */
export function jwksKeyResolver(jwksUri: string): KeyResolver {
  const client = new JwksClient({
    jwksUri,
    cache: true,
    cacheMaxAge: 10 * 60_000,
    rateLimit: true,
    jwksRequestsPerMinute: 10,
    timeout: 5_000,
  });
  const parsed = new Map<string, KeyObject>();
  return async (kid) => {
    if (!kid) throw new Error('token has no kid');
    const known = parsed.get(kid);
    if (known) return known;
    const key = createPublicKey((await client.getSigningKey(kid)).getPublicKey());
    parsed.set(kid, key);
    return key;
  };
}

/** Resolves keys from a fixed map of kid to key (tests, or a key mounted from a secret). */
export function staticKeyResolver(keys: Record<string, KeyObject>): KeyResolver {
  return async (kid) => {
    const key = kid ? keys[kid] : undefined;
    if (!key) throw new Error(`unknown kid ${String(kid)}`);
    return key;
  };
}
