import { createHash } from 'node:crypto';
import type { Logger } from '@fieldhouse/logger';
import type { RedisClient } from '../redis.ts';

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
 * Records one failed login of an account and returns `{failures, until}`:
 * KEYS[1] the account's hash; ARGV: threshold, base delay ms, max delay ms, now ms, window ms.
 * From the threshold on, each failure blocks the account until `now + min(max, base·2^(f−n))`.
 * The hash expires a window after the last failure (or when the block ends, if later).
 */
const RECORD_FAILURE = `
local f = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local n, base, max, now, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if f >= n then
  untilMs = now + math.min(max, base * 2 ^ math.min(f - n, 40))
  redis.call('HSET', KEYS[1], 'until', untilMs)
end
redis.call('PEXPIRE', KEYS[1], math.max(window, untilMs - now))
return {f, untilMs}
`;

/**
 * The per-account limit on failed logins (docs/identity.md, "Login throttling"), shared by every
 * gateway replica through Redis. It complements the per-(address, e-mail) limiter, which an
 * attacker sidesteps by changing address:
 *
 * - Each failed login of an e-mail counts (`failed`), whatever the address, also for unknown
 *   e-mails (so the answer tells nothing about which accounts exist).
 * - From the `failures`-th failure within the window on, the account is blocked for a delay
 *   that doubles with each further failure, up to `backoffMaxSeconds`: while blocked, `check`
 *   refuses the attempt before any password is checked (429 with `Retry-After`).
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

  /** Whether a login attempt for `email` from `address` may check its password now. */
  async check(email: string, address: string): Promise<ThrottleDecision> {
    const id = accountId(email);
    try {
      const until = Number(await this.redis.hGet(this.accountKey(id), 'until')) || 0;
      const waitMs = until - Date.now();
      if (waitMs <= 0) return { allowed: true };
      if (this.s.knownAddressDays > 0 && (await this.redis.sIsMember(this.knownKey(id), address)))
        return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    } catch (err) {
      this.warn(err);
      return { allowed: true };
    }
  }

  /** Counts a failed login of `email` (wrong password or unknown e-mail). */
  async failed(email: string): Promise<void> {
    try {
      await this.redis.eval(RECORD_FAILURE, {
        keys: [this.accountKey(accountId(email))],
        arguments: [
          String(this.s.failures),
          String(this.s.backoffBaseSeconds * 1000),
          String(this.s.backoffMaxSeconds * 1000),
          String(Date.now()),
          String(this.s.windowSeconds * 1000),
        ],
      });
    } catch (err) {
      this.warn(err);
    }
  }

  /** A successful login: forgets the account's failures and remembers `address` as known. */
  async succeeded(email: string, address: string): Promise<void> {
    const id = accountId(email);
    try {
      const multi = this.redis.multi().del(this.accountKey(id));
      if (this.s.knownAddressDays > 0) {
        multi.sAdd(this.knownKey(id), address).expire(this.knownKey(id), this.s.knownAddressDays * 86_400);
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
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
