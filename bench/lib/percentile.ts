/** Nearest-rank percentile `p` (0-100) of sorted values; NaN when there are none. */
export const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
    : NaN;

/** The median of unsorted values: their nearest-rank 50th percentile. */
export const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
