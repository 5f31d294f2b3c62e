/**
 * A zone-less date-time of area C (`2031-03-01T19:00:00`, the venue's wall-clock time) as a
 * readable label in the user's language, without converting it to any zone.
 */
export function localDateTimeLabel(value: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  // Formatted as UTC so that no zone offset moves the wall-clock time.
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, mo - 1, d, h, mi)));
}
