import { createHash } from 'node:crypto';
import type { Logger } from '@fieldhouse/logger';
import type { RedisClient } from '../redis.ts';
import { normalizeEmail } from './users-repo.ts';

export interface LoginThrottleSettings {
  /** Prefix of the Redis keys (`<prefix>login:acct:<hash>`, `<prefix>login:known:<hash>`). */
  keyPrefix: string;
  /** Failed logins of one account, within `windowSeconds`, before attempts are slowed down. */
  failures: number;
  /** A failure is forgotten this long after the account's last failure (seconds). */
  windowSeconds: number;
  /** First delay once `failures` is reached (seconds); doubles with every further failure. */
  backoffBaseSeconds: number;
  /** Longest delay (seconds): the throttle never locks an account for longer. */
  backoffMaxSeconds: number;
  /**
   * How long an address that signed in to an account stays "known" for it (days); a correct
   * password from a known address is let through while the account is slowed down. 0: never.
   */
  knownAddressDays: number;
}

/** The answer of {@link LoginThrottle.check}: go on, or wait `retryAfterSeconds`. */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * One login attempt of an account, decided and counted in one atomic step: KEYS[1] the
 * account's hash, KEYS[2] its known addresses (a sorted set: address → last sign-in, ms);
 * ARGV: threshold, base delay ms, max delay ms, now ms, window ms, address, known-address
 * lifetime ms (0: none). While the account is blocked (`until` > now) the attempt is refused,
 * unless the address signed in within the lifetime. An attempt let through counts as a failure
 * at once (a success clears the count): parallel guesses cannot all pass before the first
 * wrong password is counted. From the threshold on, each attempt blocks the account until
 * `now + min(max, base·2^(f−n))`. The hash expires a window after the last attempt (or when the
 * block ends, if later). Returns {allowed (1 or 0), until ms}.
 */
const ATTEMPT = `
local n, base, max, now, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local knownMs = tonumber(ARGV[7])
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untilMs > now then
  local seen = knownMs > 0 and tonumber(redis.call('ZSCORE', KEYS[2], ARGV[6]) or '0') or 0
  if seen < now - knownMs or knownMs == 0 then return {0, untilMs} end
end
local f = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if f >= n then
  untilMs = now + math.min(max, base * 2 ^ math.min(f - n, 40))
  redis.call('HSET', KEYS[1], 'until', untilMs)
end
redis.call('PEXPIRE', KEYS[1], math.max(window, untilMs - now))
return {1, untilMs}
`;

/**
 * The per-account limit on failed logins (docs/identity.md, "Login throttling"), shared by every
 * gateway replica through Redis. It complements the per-(address, e-mail) limiter, which an
 * attacker sidesteps by changing address:
 *
 * - Each login attempt of an e-mail counts as a failure when it is let through (`attempt`),
 *   whatever the address, also for unknown e-mails (so the answer tells nothing about which
 *   accounts exist); a successful login clears the count (`succeeded`).
 * - From the `failures`-th failure within the window on, the account is blocked for a delay
 *   that doubles with each further failure, up to `backoffMaxSeconds`: while blocked, `attempt`
 *   refuses it before any password is checked (429 with `Retry-After`).
 * - Not a lockout the attacker can turn against the owner: the delay is capped, a successful
 *   login resets everything (`succeeded`), and an address the account signed in from before
 *   (within `knownAddressDays`) is not blocked, so the owner's usual device gets in with the
 *   right password (its wrong passwords still count, and the per-address limiter still holds).
 * - Redis down: every call fails open (attempts pass, nothing is counted) and a warning is
 *   logged at most every 10 s, as for the other limiters.
 */
export class LoginThrottle {
  private lastWarning = 0;
  private readonly redis: RedisClient;
  private readonly s: LoginThrottleSettings;
  private readonly logger: Logger;

  constructor(redis: RedisClient, settings: LoginThrottleSettings, logger: Logger) {
    this.redis = redis;
    this.s = settings;
    this.logger = logger;
  }

  /**
   * Whether a login attempt for `email` from `address` may check its password now; one let
   * through counts as a failure until {@link succeeded} clears it (see ATTEMPT).
   */
  async attempt(email: string, address: string): Promise<ThrottleDecision> {
    const id = accountId(email);
    try {
      const [allowed, until] = (await this.redis.eval(ATTEMPT, {
        keys: [this.accountKey(id), this.knownKey(id)],
        arguments: [
          String(this.s.failures),
          String(this.s.backoffBaseSeconds * 1000),
          String(this.s.backoffMaxSeconds * 1000),
          String(Date.now()),
          String(this.s.windowSeconds * 1000),
          address,
          String(this.s.knownAddressDays * 86_400_000),
        ],
      })) as [number, number];
      if (allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
    } catch (err) {
      this.warn(err);
      return { allowed: true };
    }
  }

  /** A successful login: forgets the account's failures and remembers `address` as known. */
  async succeeded(email: string, address: string): Promise<void> {
    const id = accountId(email);
    try {
      const multi = this.redis.multi().del(this.accountKey(id));
      if (this.s.knownAddressDays > 0) {
        // Each address is known for the lifetime after its own last sign-in.
        const now = Date.now();
        const known = this.knownKey(id);
        multi
          .zAdd(known, { score: now, value: address })
          .zRemRangeByScore(known, '-inf', now - this.s.knownAddressDays * 86_400_000)
          .expire(known, this.s.knownAddressDays * 86_400);
      }
      await multi.exec();
    } catch (err) {
      this.warn(err);
    }
  }

  private accountKey(id: string) {
    return `${this.s.keyPrefix}login:acct:${id}`;
  }

  private knownKey(id: string) {
    return `${this.s.keyPrefix}login:known:${id}`;
  }

  private warn(err: unknown) {
    if (Date.now() - this.lastWarning > 10_000) {
      this.lastWarning = Date.now();
      this.logger.warn('login throttle store unavailable: per-account login limits are not enforced', {
        error: String(err),
      });
    }
  }
}

/** The account part of the keys: a hash of the normalised e-mail (no addresses in Redis). */
const accountId = (email: string) =>
  createHash('sha256').update(normalizeEmail(email)).digest('base64url').slice(0, 22);
