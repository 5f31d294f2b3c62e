/** The statistics response of spec 2.3: `{total, present, absent, taux}`. */
export interface EventStats {
  total: number;
  present: number;
  absent: number;
  /** Percentage of invitees present, an integer from 0 to 100. */
  taux: number;
}

/**
 * Builds the statistics from the counts of active (non-revoked) invites and those present.
 * `taux` is `floor(100 * present / total)`: rounded down, so 100 means everyone came and
 * 199 of 200 shows 99; 0 when there are no invites.
 */
export function statsFrom(total: number, present: number): EventStats {
  return {
    total,
    present,
    absent: total - present,
    taux: total === 0 ? 0 : Math.floor((100 * present) / total),
  };
}
