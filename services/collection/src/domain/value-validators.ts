import type { FieldDef, ValueType } from './types.ts';

/** Compiles a text field's pattern to a whole-value matcher (`^(?:pattern)$`, Unicode mode). */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

/**
 * One validator per field type (spec 2.1, "Data types and value formats"). Each takes a value
 * that is not null and the field it is for, and returns an error message, or null when valid.
 */
export type ValueValidator = (value: unknown, field: FieldDef) => string | null;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Bounds of `min`/`max` on a number, or null when inside. */
function checkRange(v: number, field: FieldDef): string | null {
  const { min, max } = field.constraints;
  if (min !== undefined && v < min) return `must be at least ${min}`;
  if (max !== undefined && v > max) return `must be at most ${max}`;
  return null;
}

/** YYYY-MM-DD naming a real calendar day (2024-02-30 is refused). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * An instant as XML Schema's `dateTime` writes it, ODK's `dateTime` type
 * (getodk.github.io/xforms-spec, "Data types"), with its UTC offset required:
 * `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9 digits, then `Z` or `±HH:MM` (at most
 * ±14:00). The day must be a real calendar day, the hour 00 to 23 (XML Schema's `24:00:00` is
 * refused), the seconds 00 to 59. ODK Collect sends `2031-06-12T19:00:00.000+02:00`.
 */
export function isDateTime(s: string): boolean {
  const m =
    /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](\d{2}):([0-5]\d))$/.exec(s);
  if (!m || !isCalendarDate(m[1]!)) return false;
  return m[3] === undefined || Number(m[3]) < 14 || (m[3] === '14' && m[4] === '00');
}

const text: ValueValidator = (v, f) => {
  if (typeof v !== 'string') return 'must be a string';
  const { max_length, pattern } = f.constraints;
  if (max_length !== undefined && [...v].length > max_length)
    return `must be at most ${max_length} characters`;
  if (pattern !== undefined && !compilePattern(pattern).test(v)) return 'does not match the required pattern';
  return null;
};

const integer: ValueValidator = (v, f) => {
  if (!isNumber(v) || !Number.isSafeInteger(v)) return 'must be an integer';
  return checkRange(v, f);
};

const decimal: ValueValidator = (v, f) => {
  if (!isNumber(v)) return 'must be a number';
  return checkRange(v, f);
};

const date: ValueValidator = (v) =>
  typeof v === 'string' && isCalendarDate(v) ? null : 'must be a real calendar date as YYYY-MM-DD';

const time: ValueValidator = (v) =>
  typeof v === 'string' && /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(v) ? null : 'must be a time as HH:MM:SS';

const datetime: ValueValidator = (v) =>
  typeof v === 'string' && isDateTime(v)
    ? null
    : 'must be a date-time as YYYY-MM-DDTHH:MM:SS with a UTC offset (Z or +HH:MM), e.g. 2031-06-12T19:00:00.000+02:00';

const choiceValues = (f: FieldDef) => new Set((f.choices ?? []).map((c) => c.value));

const selectOne: ValueValidator = (v, f) => {
  if (typeof v !== 'string') return 'must be a string naming one choice';
  return choiceValues(f).has(v) ? null : `is not one of the choices of ${f.name}`;
};

const selectMultiple: ValueValidator = (v, f) => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return 'must be an array of choice values';
  const values = choiceValues(f);
  const unknown = v.filter((x) => !values.has(x));
  if (unknown.length) return `has values that are not choices of ${f.name}: ${unknown.join(', ')}`;
  if (new Set(v).size !== v.length) return 'names a choice more than once';
  return null;
};

/** Latitude, longitude, altitude and precision checks shared by geopoints and submissions. */
const coordinateChecks = {
  latitude: (v: number) => (v >= -90 && v <= 90 ? null : 'latitude must be between -90 and 90'),
  longitude: (v: number) => (v >= -180 && v <= 180 ? null : 'longitude must be between -180 and 180'),
  altitude: (_v: number) => null,
  precision: (v: number) => (v >= 0 ? null : 'precision must be zero or more (metres)'),
};

const geopoint: ValueValidator = (v) => {
  if (!Array.isArray(v) || v.length < 2 || v.length > 4 || !v.every(isNumber))
    return 'must be an array [latitude, longitude, altitude, precision] of numbers (altitude and precision optional)';
  const [lat, lon, alt, prec] = v as number[];
  return (
    coordinateChecks.latitude(lat!) ??
    coordinateChecks.longitude(lon!) ??
    (alt !== undefined ? coordinateChecks.altitude(alt) : null) ??
    (prec !== undefined ? coordinateChecks.precision(prec) : null)
  );
};

/** Standard base64 (optionally a `data:<type>;base64,` URL); the bytes are sniffed later. */
const photo: ValueValidator = (v) => {
  if (typeof v !== 'string') return 'must be a base64 string or an uploaded file';
  const b64 = stripDataUrl(v);
  if (!b64.length || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
    return 'must be base64-encoded image bytes';
  return null;
};

/** The base64 part of a `data:` URL, or the string itself. */
export function stripDataUrl(v: string): string {
  const m = /^data:[^;,]*;base64,/.exec(v);
  return (m ? v.slice(m[0].length) : v).replace(/\s+/g, '');
}

/** The validator of each value type (`group`, `repeat`, `note` and `calculate` have none). */
export const VALUE_VALIDATORS: Record<ValueType, ValueValidator> = {
  text,
  integer,
  decimal,
  date,
  time,
  datetime,
  select_one: selectOne,
  select_multiple: selectMultiple,
  geopoint,
  photo,
};

/** True when a value counts as "no answer" for a required field. */
export function isEmptyValue(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0)
  );
}
