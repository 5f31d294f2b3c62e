import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A 6-digit one-time password from a CSPRNG. */
export const newPassword = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The public name of a pending vote (`verification_code` of the vote answer). */
export const newVerificationCode = (): string => randomBytes(18).toString('base64url');

/** SHA-256 of the password bound to its pending vote's code (the code acts as a salt). */
export const hashPassword = (code: string, password: string): string =>
  createHash('sha256').update(`${code}:${password}`).digest('hex');

/** Constant-time comparison of a password with the stored hash. */
export function passwordMatches(code: string, password: string, hash: string): boolean {
  const a = Buffer.from(hashPassword(code, password), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
