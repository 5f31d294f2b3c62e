/**
 * Runtime values and their conversions, per XPath 1.0 §3.4 and §4 (string(), number(), boolean())
 * with the ODK XForms extensions for dates (getodk.github.io/xforms-spec, "Data types"): a date used
 * as a number is the number of days since 1970-01-01T00:00 UTC; a string that is an ISO date or
 * date-time converts to such a number. Dates are read and written in the runtime's local time zone,
 * as ODK clients do on the device.
 */

/** An answer as the caller holds it: select-multiple answers as arrays or space-separated text. */
export type Answer = string | number | boolean | null | undefined | readonly string[];

/** A node-set: the string values of the nodes a reference selects (several inside repeats). */
export class NodeSet {
  readonly values: readonly string[];
  constructor(values: readonly string[]) {
    this.values = values;
  }
}

/** A date or date-time (from date(), today(), now()): milliseconds since the epoch. */
export class DateValue {
  readonly time: number;
  constructor(time: number) {
    this.time = time;
  }
}

export type Value = string | number | boolean | NodeSet | DateValue;

const MS_PER_DAY = 86_400_000;
const DATE_TEXT = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/;
const DATE_TIME_TEXT = /^\s*\d{4}-\d{1,2}-\d{1,2}[T ]\d{2}:\d{2}/;

/** The string value of one answer: null/undefined are the empty answer, arrays join with spaces. */
export function answerText(answer: Answer): string {
  if (answer === null || answer === undefined) return '';
  if (typeof answer === 'string') return answer;
  if (typeof answer === 'number' || typeof answer === 'boolean') return String(answer);
  return answer.join(' ');
}

/** Builds the node-set for a reference that selects several nodes (e.g. a field in every repeat instance). */
export function nodes(answers: readonly Answer[]): NodeSet {
  return new NodeSet(answers.map(answerText));
}

/**
 * Parses (cached) an ISO 8601 date (`2018-01-01`, local midnight; single-digit month and day accepted) or
 * date-time (`2003-10-20T08:00:00.000-07:00`; without an offset: local time). NaN when not a date.
 */
function parseDateText(text: string): number {
  if (text.length < 8 || text.length > 40) return NaN;
  let time = dateCache.get(text);
  if (time === undefined) {
    time = parseDateTextUncached(text);
    if (dateCache.size >= DATE_CACHE_SIZE) dateCache.clear();
    dateCache.set(text, time);
  }
  return time;
}

const DATE_CACHE_SIZE = 10_000;
const clearers: (() => void)[] = [];

/** Registers a cache of date results that clearDateCache() must clear too. */
export function onDateCacheClear(clear: () => void): void {
  clearers.push(clear);
}
const dateCache = new Map<string, number>();

/**
 * Forgets the date text parsed so far (parsing is cached per text: a form reads the same dates in
 * many expressions). Call it after changing the time zone of a running process, as tests do.
 */
export function clearDateCache(): void {
  dateCache.clear();
  formattedDates.clear();
  for (const clear of clearers) clear();
}

function parseDateTextUncached(text: string): number {
  const date = DATE_TEXT.exec(text);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (month < 1 || month > 12 || day < 1 || day > 31) return NaN;
    const local = new Date(year, month - 1, day);
    return local.getMonth() === month - 1 ? local.getTime() : NaN;
  }
  if (DATE_TIME_TEXT.test(text)) return Date.parse(text.trim().replace(' ', 'T'));
  return NaN;
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/**
 * `YYYY-MM-DD` at local midnight, else `YYYY-MM-DDTHH:mm:ss.sss±hh:mm` in local time (cached per
 * time, as parsing is: see clearDateCache()).
 */
function formatDate(time: number): string {
  if (Number.isNaN(time)) return 'Invalid Date';
  let text = formattedDates.get(time);
  if (text === undefined) {
    text = formatDateUncached(time);
    if (formattedDates.size >= DATE_CACHE_SIZE) formattedDates.clear();
    formattedDates.set(time, text);
  }
  return text;
}

const formattedDates = new Map<number, string>();

function formatDateUncached(time: number): string {
  const d = new Date(time);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  if (d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0)
    return day;
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  return `${day}T${clock}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** XPath 1.0 number → string: integers without a point, no exponent, NaN, Infinity, -0 → "0". */
function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (n === 0) return '0';
  const text = String(n);
  if (!text.includes('e')) return text;
  const fixed = Math.abs(n) < 1 ? n.toFixed(20) : BigInt(Math.round(n)).toString();
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

const isWhitespace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;
const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * XPath 1.0 §4.4 number() of text: optional whitespace, an optional minus, digits with an optional
 * fraction (`1`, `1.`, `.5`), optional whitespace; ODK also reads an exponent (`7.9e-12`). NaN
 * for anything else. A scanner, not a regular expression: answers are converted very often.
 */
function scanNumber(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  let i = start;
  if (i < end && text.charCodeAt(i) === 45) i++;
  let digits = 0;
  while (i < end && isDigit(text.charCodeAt(i))) {
    i++;
    digits++;
  }
  if (i < end && text.charCodeAt(i) === 46) {
    i++;
    while (i < end && isDigit(text.charCodeAt(i))) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return NaN;
  if (i < end && (text.charCodeAt(i) | 32) === 101) {
    i++;
    if (i < end && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++;
    const exponentStart = i;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    if (i === exponentStart) return NaN;
  }
  return i === end ? Number(text.slice(start, end)) : NaN;
}

/** XPath number() of a string, with the ODK rule that date text is days since the epoch. */
export function textNumber(text: string): number {
  const length = text.length;
  if (length === 0) return NaN;
  if (length < 16) {
    // Fast path for the commonest answer, digits only.
    let value = 0;
    let i = 0;
    for (; i < length; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (i === length) return value;
  }
  const number = scanNumber(text);
  if (!Number.isNaN(number)) return number;
  const time = parseDateText(text);
  return Number.isNaN(time) ? NaN : time / MS_PER_DAY;
}

export function toText(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof NodeSet) return value.values[0] ?? '';
  return formatDate(value.time);
}

export function toNumber(value: Value): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return textNumber(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof NodeSet) return value.values.length === 0 ? NaN : textNumber(value.values[0]!);
  return value.time / MS_PER_DAY;
}

export function toBoolean(value: Value): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value.length > 0;
  if (value instanceof NodeSet) return value.values.length > 0;
  return !Number.isNaN(value.time);
}

/** A date from any value: numbers are days since the epoch, text is ISO 8601; NaN time when none. */
export function toDate(value: Value): DateValue {
  if (value instanceof DateValue) return value;
  if (typeof value === 'number') return new DateValue(Math.round(value * MS_PER_DAY));
  if (typeof value === 'boolean') return new DateValue(NaN);
  const text = toText(value);
  const days = scanNumber(text);
  return new DateValue(Number.isNaN(days) ? parseDateText(text) : Math.round(days * MS_PER_DAY));
}

export { MS_PER_DAY };
