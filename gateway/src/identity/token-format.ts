import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ENTROPY_LENGTH = 40;
const SECRET_SHAPE = /^[A-Za-z0-9]{40}[0-9a-f]{8}$/;
const ID_SHAPE = /^[1-9][0-9]{0,15}$/;

/** CRC32 of the entropy part as 8 lower-case hex digits (Sanctum's `hash('crc32b', ...)`). */
const checksum = (entropy: string) => crc32(entropy).toString(16).padStart(8, '0');

/**
 * A new token secret, Sanctum-compatible: 40 characters from a CSPRNG over `[A-Za-z0-9]`
 * (about 238 bits) followed by their CRC32 in hex, so junk is rejected before any lookup.
 */
export function generateSecret(): string {
  let entropy = '';
  for (let i = 0; i < ENTROPY_LENGTH; i++) entropy += ALPHABET[randomInt(ALPHABET.length)];
  return entropy + checksum(entropy);
}

/** SHA-256 hex of a secret: the only form in which a token is stored. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Constant-time comparison of two SHA-256 hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * Splits a bearer value `"<id>|<secret>"`. Returns null for anything malformed (no bar, a
 * non-numeric or oversized id, a secret of the wrong shape or with a wrong checksum), so such
 * tokens never reach the database.
 */
export function parseToken(raw: string): { id: number; secret: string } | null {
  if (raw.length > 80) return null;
  const bar = raw.indexOf('|');
  if (bar < 1) return null;
  const idPart = raw.slice(0, bar);
  const secret = raw.slice(bar + 1);
  if (!ID_SHAPE.test(idPart) || !SECRET_SHAPE.test(secret)) return null;
  if (checksum(secret.slice(0, ENTROPY_LENGTH)) !== secret.slice(ENTROPY_LENGTH)) return null;
  const id = Number(idPart);
  return Number.isSafeInteger(id) ? { id, secret } : null;
}

/** Prefix of scanner-device credentials, `fhd_<id>|<secret>` (docs/identity.md, "Scanner devices"). */
export const DEVICE_CREDENTIAL_PREFIX = 'fhd_';

/** Splits a device credential `fhd_<id>|<secret>` like {@link parseToken}; null when malformed. */
export function parseDeviceCredential(raw: string): { id: number; secret: string } | null {
  return raw.startsWith(DEVICE_CREDENTIAL_PREFIX)
    ? parseToken(raw.slice(DEVICE_CREDENTIAL_PREFIX.length))
    : null;
}
