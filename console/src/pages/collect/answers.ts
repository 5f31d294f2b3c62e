import type { Field } from '../collection/types.ts';

/** A geopoint as typed or read from `navigator.geolocation`: degrees and metres, as text. */
export interface GeopointDraft {
  latitude: string;
  longitude: string;
  altitude: string;
  accuracy: string;
}

/** A photo chosen on the device, resized when needed, as a `data:image/...;base64,` URL. */
export interface PhotoDraft {
  name: string;
  dataUrl: string;
  /** Bytes of the (resized) image. */
  size: number;
}

/** What the collector has entered for one field, before it is turned into a value. */
export type Answer = string | string[] | GeopointDraft | PhotoDraft | null;

/** The answers of one form, by field uuid: what drafts and the queue keep. */
export type Answers = Record<string, Answer>;

/** A data entry of a submission (spec 2.1): `{field_uuid, type, value}`. */
export interface DataEntry {
  field_uuid: string;
  type: Field['type'];
  value: unknown;
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** What a `datetime-local` input gives: the wall-clock time, no offset (seconds optional). */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?$/;
/** A date-time with its UTC offset, as the service takes it (docs/collection.md, "Validation"). */
const OFFSET_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](0\d|1[0-4]):[0-5]\d)$/;

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** This browser's UTC offset at `date` as `+HH:MM` / `-HH:MM` (`+00:00` for UTC). */
export function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * A date-time answer as the service stores it, `YYYY-MM-DDTHH:MM:SS.sss±HH:MM`: what a
 * `datetime-local` input gives (the device's wall-clock time) with the device's offset at that
 * moment; a value that already has its offset (a default, a restored answer) is kept. Null when
 * it is neither, or not a real day.
 */
function dateTimeValue(text: string): string | null {
  if (OFFSET_DATE_TIME.test(text)) return Number.isNaN(Date.parse(text)) ? null : text;
  const m = LOCAL_DATE_TIME.exec(text);
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}`);
  if (Number.isNaN(d.getTime())) return null;
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  if (day !== m[1]) return null; // 2031-02-30 rolls over to March
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.000`;
  return `${day}T${clock}${offsetOf(d)}`;
}

/** A date-time answer as a `datetime-local` input shows it: the instant in this browser's time zone. */
export function localDateTimeText(value: string): string {
  if (!OFFSET_DATE_TIME.test(value)) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * Whether an answer is empty ("no answer" is `null` in a submission). Blank text counts as
 * empty, as for the service: a required field answered with spaces is refused there.
 */
export const isEmpty = (a: Answer | undefined): boolean =>
  a === null ||
  a === undefined ||
  (typeof a === 'string' && a.trim() === '') ||
  (Array.isArray(a) && a.length === 0) ||
  (typeof a === 'object' && !Array.isArray(a) && 'latitude' in a && a.latitude === '' && a.longitude === '');

/** Problems of one answer, as message keys with their values (namespace `collect`). */
export type Problem = { key: string; values?: Record<string, unknown> };

/**
 * Turns the answers into the submission's data entries, checking them as the collection service
 * does (docs/collection.md, "Validation"): required fields, integers and decimals with their
 * min/max, text length and pattern (the whole text), real calendar days, HH:MM:SS times, date-times with the device's UTC offset, choices
 * among the field's, geopoints in range. Returns the entries, or the problems by field uuid.
 */
export function toEntries(
  fields: readonly Field[],
  answers: Answers,
): { entries: DataEntry[]; problems: Record<string, Problem> } {
  const entries: DataEntry[] = [];
  const problems: Record<string, Problem> = {};
  for (const field of fields) {
    const answer = answers[field.uuid];
    if (isEmpty(answer)) {
      if (field.required) problems[field.uuid] = { key: 'errors.required' };
      continue;
    }
    const result = valueOf(field, answer!);
    if ('problem' in result) problems[field.uuid] = result.problem;
    else entries.push({ field_uuid: field.uuid, type: field.type, value: result.value });
  }
  return { entries, problems };
}

export function valueOf(
  field: Field,
  answer: Exclude<Answer, null>,
): { value: unknown } | { problem: Problem } {
  const c = field.constraints;
  const range = (n: number) =>
    c.min !== undefined && n < c.min
      ? { problem: { key: 'errors.min', values: { min: c.min } } }
      : c.max !== undefined && n > c.max
        ? { problem: { key: 'errors.max', values: { max: c.max } } }
        : { value: n };
  switch (field.type) {
    case 'text': {
      const text = String(answer);
      if (c.max_length !== undefined && [...text].length > c.max_length)
        return { problem: { key: 'errors.maxLength', values: { max: c.max_length } } };
      if (c.pattern && !new RegExp(`^(?:${c.pattern})$`, 'u').test(text))
        return { problem: { key: 'errors.pattern' } };
      return { value: text };
    }
    case 'integer': {
      const n = Number(answer);
      return String(answer).trim() !== '' && Number.isSafeInteger(n)
        ? range(n)
        : { problem: { key: 'errors.integer' } };
    }
    case 'decimal': {
      const n = Number(answer);
      return String(answer).trim() !== '' && Number.isFinite(n)
        ? range(n)
        : { problem: { key: 'errors.decimal' } };
    }
    case 'date': {
      const d = String(answer);
      const parsed = new Date(`${d}T00:00:00Z`);
      return DAY.test(d) && parsed.toISOString().startsWith(d)
        ? { value: d }
        : { problem: { key: 'errors.date' } };
    }
    case 'time': {
      const t = String(answer);
      return TIME.test(t) ? { value: t.length === 5 ? `${t}:00` : t } : { problem: { key: 'errors.time' } };
    }
    case 'datetime': {
      const value = dateTimeValue(String(answer));
      return value ? { value } : { problem: { key: 'errors.datetime' } };
    }
    case 'select_one':
      return field.choices?.some((ch) => ch.value === answer)
        ? { value: answer }
        : { problem: { key: 'errors.choice' } };
    case 'select_multiple': {
      const values = Array.isArray(answer) ? answer : [];
      return values.every((v) => field.choices?.some((ch) => ch.value === v))
        ? { value: values }
        : { problem: { key: 'errors.choice' } };
    }
    case 'geopoint': {
      const g = answer as GeopointDraft;
      const lat = Number(g.latitude);
      const lon = Number(g.longitude);
      if (g.latitude.trim() === '' || !Number.isFinite(lat) || lat < -90 || lat > 90)
        return { problem: { key: 'errors.latitude' } };
      if (g.longitude.trim() === '' || !Number.isFinite(lon) || lon < -180 || lon > 180)
        return { problem: { key: 'errors.longitude' } };
      const alt = g.altitude.trim() === '' ? 0 : Number(g.altitude);
      const acc = g.accuracy.trim() === '' ? 0 : Number(g.accuracy);
      if (!Number.isFinite(alt)) return { problem: { key: 'errors.altitude' } };
      if (!Number.isFinite(acc) || acc < 0) return { problem: { key: 'errors.accuracy' } };
      return { value: [lat, lon, alt, acc] };
    }
    case 'photo':
      return { value: typeof answer === 'string' ? answer : (answer as PhotoDraft).dataUrl };
    default:
      // calculate: computed (the service recomputes it); group, repeat, note: never answered.
      return { value: typeof answer === 'string' ? answer : null };
  }
}

/** The field uuid a service error key names: `data.3.value` → the field of entry 3. */
export function fieldOfErrorKey(key: string, entries: readonly DataEntry[]): string | undefined {
  const m = /^data\.(\d+)/.exec(key);
  return m ? entries[Number(m[1])]?.field_uuid : undefined;
}

const INDEX = /^\d+$/;

/**
 * Where a service error key points inside nested entries (docs/collection.md, "Error keys"), as
 * field uuids and 0-based instance indexes joined by dots: `data.3.value` → `<uuid of entry 3>`;
 * `data.5.value.1.2.value` (entry 2 of instance 1 of the repeat at entry 5) → `<repeat uuid>.1.<uuid
 * of that entry>`; a required answer with no entry inside an instance names its field:
 * `data.5.value.1.age` → `<repeat uuid>.1.age`. A key past the entries sent stops at the
 * deepest entry it names (`data.5.value`: a repeat count out of range → the repeat). Undefined
 * for keys naming no entry (`data.age`: a top-level required answer with no entry; `project`).
 */
export function errorPathOfKey(key: string, entries: readonly DataEntry[]): string | undefined {
  const parts = key.split('.');
  if (parts[0] !== 'data' || parts.length < 2) return undefined;
  const out: string[] = [];
  let level: readonly DataEntry[] = entries;
  for (let i = 1; i < parts.length;) {
    const part = parts[i]!;
    if (!INDEX.test(part)) {
      if (i > 1) out.push(part);
      break;
    }
    const entry = level[Number(part)];
    if (!entry) break;
    out.push(entry.field_uuid);
    const instance = parts[i + 2];
    const instances = entry.type === 'repeat' && Array.isArray(entry.value) ? entry.value : null;
    if (parts[i + 1] !== 'value' || instance === undefined || !INDEX.test(instance) || !instances) break;
    const entriesOfInstance = instances[Number(instance)] as unknown;
    if (!Array.isArray(entriesOfInstance) || parts.length <= i + 3) break;
    out.push(instance);
    level = entriesOfInstance as DataEntry[];
    i += 3;
  }
  return out.length ? out.join('.') : undefined;
}
