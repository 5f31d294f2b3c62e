/**
 * An ISO time as a date and time in the reader's language (`lng`: i18next's resolved language),
 * e.g. "25 Nov 2026, 14:05".
 */
export const formatDateTime = (iso: string, lng: string | undefined) =>
  new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** An ISO time as an hour and minute in the reader's language, e.g. "14:05" or "2:05 PM". */
export const formatTime = (iso: string, lng: string | undefined) =>
  new Intl.DateTimeFormat(lng, { timeStyle: 'short' }).format(new Date(iso));

/**
 * A meeting slot's time in the reader's language: its start as date and time, and its end's hour
 * when it has one ("25 Nov 2026, 14:00 – 15:00"); '' without a start.
 */
export const formatSlot = (start: string | null, end: string | null, lng: string | undefined) =>
  !start ? '' : end ? `${formatDateTime(start, lng)} – ${formatTime(end, lng)}` : formatDateTime(start, lng);
