import type { DataEntry, Field, Submission } from '../collection/types.ts';

/** A stored photo answer (docs/collection.md, "Photos"): the entry's value after upload. */
export interface PhotoValue {
  photo_id: string | number;
  content_type?: string;
  size?: number;
  url: string;
}

/** A geopoint answer: `[latitude, longitude, altitude?, precision?]` in degrees and metres. */
export type GeopointValue = [number, number, number?, number?];

export const isPhoto = (v: unknown): v is PhotoValue =>
  typeof v === 'object' && v !== null && typeof (v as PhotoValue).url === 'string';

export const isGeopoint = (v: unknown): v is GeopointValue =>
  Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number';

/** A submission's answers by field uuid (one entry per field; `null` means "no answer"). */
export const answersOf = (submission: Submission): Map<string, unknown> =>
  new Map((submission.data as DataEntry[]).map((e) => [e.field_uuid, e.value]));

/**
 * An answer as text for a table cell or a screen reader: choices by their labels, numbers in
 * the reader's language, a geopoint as "lat, lon (± precision m)", a date-time as the collector's
 * wall-clock time with its offset, a photo as `photoLabel`; empty for no answer.
 */
export function answerText(field: Field, value: unknown, locale: string, photoLabel: string): string {
  if (value === null || value === undefined || value === '') return '';
  const label = (v: unknown) => field.choices?.find((c) => c.value === v)?.label ?? String(v);
  switch (field.type) {
    case 'select_one':
      return label(value);
    case 'select_multiple':
      return Array.isArray(value) ? value.map(label).join(', ') : String(value);
    case 'integer':
    case 'decimal':
      return typeof value === 'number' ? value.toLocaleString(locale) : String(value);
    case 'geopoint':
      return isGeopoint(value) ? geopointText(value, locale) : String(value);
    case 'photo':
      return photoLabel;
    case 'datetime':
      return typeof value === 'string' ? dateTimeText(value, locale) : String(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** "14.69281, -17.44672 (± 8 m)": six decimals (about 10 cm), the precision when known. */
export function geopointText([lat, lon, , precision]: GeopointValue, locale: string): string {
  const deg = (n: number) => n.toLocaleString(locale, { maximumFractionDigits: 6 });
  return precision !== undefined && precision !== null
    ? `${deg(lat)}, ${deg(lon)} (± ${Math.round(precision).toLocaleString(locale)} m)`
    : `${deg(lat)}, ${deg(lon)}`;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date-time answer (ISO 8601 with its offset, as stored: docs/collection.md, "datetime") as the
 * collector saw it, in the reader's language: "12 Jun 2031, 19:00 (UTC+02:00)". The wall-clock
 * time is the one written with the offset, not converted to the reader's zone (the offset says
 * where it was). Text that is not such a value comes back as it is.
 */
export function dateTimeText(value: string, locale: string): string {
  const m = DATE_TIME.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi, s, offset] = m;
  const wall = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, s ? +s : 0));
  const text = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: s && s !== '00' ? 'medium' : 'short',
    timeZone: 'UTC',
  }).format(wall);
  return `${text} (UTC${offset === 'Z' ? '' : offset})`;
}
