import { randomBytes } from 'node:crypto';

/**
 * Alphabet of `code_unique`: digits 2-9 and capitals without the look-alikes 0/O, 1/I/L, U/V
 * (29 symbols), so a code read aloud or typed from paper is unambiguous.
 */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';

/** Length of a code: 22 symbols of log2(29) = 4.86 bits each, about 106.9 bits of entropy. */
const CODE_LENGTH = 22;

/**
 * A fresh `code_unique` (or, with `length`, a setup code) from the operating system's CSPRNG (`crypto.randomBytes`), with
 * rejection sampling so every symbol is uniformly distributed (no modulo bias).
 * Uniqueness across all events is enforced by a unique index; callers retry on a collision.
 */
export function generateCode(length = CODE_LENGTH): string {
  const n = CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      out += CODE_ALPHABET[byte % n];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A scanned or typed code in canonical form: upper case, without spaces or dashes.
 * Returns undefined when it cannot be a code (empty, too long, or not a string): at most 64
 * symbols, or 256 for a signed code (`FH1...`, domain/signed-codes.ts).
 */
export function normalizeCode(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  return code.length > 0 && code.length <= (code.startsWith('FH1') ? 256 : 64) ? code : undefined;
}
