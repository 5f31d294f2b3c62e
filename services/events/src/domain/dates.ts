/**
 * A date-time without zone (spec 2.3 `start_date`/`end_date`): `YYYY-MM-DDTHH:MM`, optionally
 * with `:SS` and a fraction of up to 6 digits. A zone suffix (`Z`, `+02:00`) is refused.
 */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;

/** Whether `value` is a real calendar date-time without zone (no 2025-02-30, no 24:00). */
export function isLocalDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0)) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    y! >= 1
  );
}

/** Compares two valid local date-times: negative, zero or positive like a sort comparator. */
export function compareLocal(a: string, b: string): number {
  const pad = (v: string) => (v.length === 16 ? `${v}:00` : v).padEnd(26, '0').replace('.', '');
  const [x, y] = [pad(a), pad(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
