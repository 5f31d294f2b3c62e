import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

export interface SigningKey {
  privateKey: KeyObject;
  /** RFC 7638 thumbprint of the public key: stable for a key, new for a rotated one. */
  kid: string;
  /** The public key as a JWK with `kid`, `alg` and `use`, for the JWKS. */
  publicJwk: JsonWebKey & { kid: string; alg: string; use: string };
}

/**
 * Loads the EC P-256 private key that signs internal JWTs (ES256) from PEM.
 * @throws Error when the PEM is not an EC P-256 private key.
 */
export function loadSigningKey(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('INTERNAL_JWT_PRIVATE_KEY must be an EC P-256 (prime256v1) private key');
  }
  const publicJwk = toJwk(createPublicKey(privateKey));
  return { privateKey, kid: publicJwk.kid, publicJwk };
}

/** A public key as a JWK with its RFC 7638 thumbprint as `kid`. */
function toJwk(publicKey: KeyObject): SigningKey['publicJwk'] {
  const jwk = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');
  return { ...jwk, kid, alg: 'ES256', use: 'sig' };
}

/**
 * Extra public keys to publish beside the signing key (key rotation: first publish the next
 * key, then sign with it while still publishing the previous one). `pems` is a bundle of
 * PEM public keys, or empty.
 */
export function loadExtraPublicKeys(pems: string): Array<SigningKey['publicJwk']> {
  const blocks = pems.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [];
  return blocks.map((pem) => {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('INTERNAL_JWT_EXTRA_PUBLIC_KEYS must hold EC P-256 public keys');
    }
    return toJwk(key);
  });
}
