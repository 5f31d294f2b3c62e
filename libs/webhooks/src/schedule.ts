const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a retry schedule setting such as `5s,5m,30m,2h,5h,10h,10h` (units ms, s, m, h).
 * @throws Error naming the entry that is not a duration.
 */
export function parseRetrySchedule(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(part);
      if (!m) throw new Error(`Not a duration (use ms, s, m or h): ${part}`);
      return Math.round(Number(m[1]) * UNITS[m[2]!]!);
    });
}

/**
 * The delay before the next attempt after `failed` failed attempts of this round (1 = the first
 * attempt failed), with ±20 % jitter so that retries of many deliveries spread out; undefined
 * when the schedule is spent and the delivery has failed for good.
 */
export function retryDelayMs(
  schedule: number[],
  failed: number,
  random: () => number = Math.random,
): number | undefined {
  const base = schedule[failed - 1];
  return base === undefined ? undefined : Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The default retry schedule (docs/webhooks.md, "Retries"): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h, so 8 attempts over about 27.5 hours, each delay with ±20 % jitter.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** {@link DEFAULT_RETRY_SCHEDULE} in milliseconds. */
export const DEFAULT_RETRY_SCHEDULE_MS = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
