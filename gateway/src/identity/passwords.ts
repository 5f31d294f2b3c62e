import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

/** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
export const MAX_PASSWORD_BYTES = 72;

export const passwordTooLong = (password: string) => Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES;

/**
 * Hashes and checks passwords with bcrypt at a fixed cost. A dummy hash of the same cost is
 * compared when the e-mail is unknown, so a login takes the same time either way.
 */
export class PasswordHasher {
  private readonly rounds: number;
  private readonly dummy: Promise<string>;

  constructor(rounds: number) {
    this.rounds = rounds;
    this.dummy = bcrypt.hash(randomBytes(16).toString('hex'), rounds);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.rounds);
  }

  /** Compares against `hash`, or against the dummy hash when `hash` is undefined (always false then). */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const ok = await bcrypt.compare(password, hash ?? (await this.dummy));
    return ok && hash !== undefined;
  }
}
