/**
 * The function library: XPath 1.0 core functions and the ODK XForms additions
 * (getodk.github.io/xforms-spec, "XPath Functions"). Each entry gives its arity, checked when an
 * expression is compiled, and its implementation over evaluated arguments.
 */
import { clockOf, currentOf, positionOf, type EvaluationContext } from './context.ts';
import {
  DateValue,
  MS_PER_DAY,
  NodeSet,
  onDateCacheClear,
  toBoolean,
  toDate,
  toNumber,
  toText,
  type Value,
} from './values.ts';

export interface FunctionSpec {
  min: number;
  max: number;
  /** Argument indexes that must be node-sets (a reference or a path). */
  nodeSetArgs?: readonly number[];
  /**
   * Whether it reads the truth value of its arguments (boolean(), not(), if()), where a node-set
   * of one empty answer (true) differs from its text '' (false). Every other function reads only
   * the string and number values of single answers, so it receives them as text.
   */
  truthArgs?: boolean;
  call(args: Value[], ctx: EvaluationContext): Value;
}

const texts = (value: Value): readonly string[] =>
  value instanceof NodeSet ? value.values : [toText(value)];
const tokens = (value: Value): string[] => toText(value).split(/\s+/).filter(Boolean);

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** Whether the space-separated `list` (a select-multiple answer) holds `token`, without splitting it. */
function hasToken(list: string, token: string): boolean {
  if (token === '') return false;
  for (let from = list.indexOf(token); from >= 0; from = list.indexOf(token, from + 1)) {
    const end = from + token.length;
    if (
      (from === 0 || isSpace(list.charCodeAt(from - 1))) &&
      (end === list.length || isSpace(list.charCodeAt(end)))
    ) {
      return true;
    }
  }
  return false;
}

/** How many space-separated tokens `list` holds. */
function countTokens(list: string): number {
  let count = 0;
  let inToken = false;
  for (let i = 0; i < list.length; i++) {
    const space = isSpace(list.charCodeAt(i));
    if (!space && !inToken) count++;
    inToken = !space;
  }
  return count;
}
const arg = (args: Value[], i: number): Value => args[i] ?? '';

function numbersOf(args: Value[]): number[] {
  const out: number[] = [];
  for (const a of args) {
    if (a instanceof NodeSet) for (const t of a.values) out.push(toNumber(t));
    else out.push(toNumber(a));
  }
  return out;
}

/** ODK round(): half away from zero, to `digits` decimals (negative: tens, hundreds...). */
function round(n: number, digits: number): number {
  if (!Number.isFinite(n) || !Number.isFinite(digits)) return Number.isFinite(n) ? NaN : n;
  const scale = Math.pow(10, Math.trunc(digits));
  // (1 + EPSILON) corrects binary fractions just below a half (1.475 * 100 = 147.49999999999997).
  return (Math.sign(n) * Math.round(Math.abs(n) * scale * (1 + Number.EPSILON))) / scale;
}

/** ODK coalesce(): a value is empty when its string is '' or it is the number NaN. */
export function isEmpty(value: Value): boolean {
  return (typeof value === 'number' && Number.isNaN(value)) || toText(value) === '';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (n: number): string => String(n).padStart(2, '0');

/** ODK format-date(): %Y %y %m %n %b %d %e %H %h %M %S %3 %a, in local time; '' for no date. */
function formatDateWith(value: Value, format: string): string {
  const time = toText(value) === '' ? NaN : toDate(value).time;
  if (Number.isNaN(time)) return '';
  const key = `${time} ${format}`;
  let text = formatted.get(key);
  if (text === undefined) {
    text = formatTime(time, format);
    if (formatted.size >= 10_000) formatted.clear();
    formatted.set(key, text);
  }
  return text;
}

/** format-date() results by time and format, as forms format the same few dates repeatedly. */
const formatted = new Map<string, string>();
onDateCacheClear(() => formatted.clear());

function formatTime(time: number, format: string): string {
  const d = new Date(time);
  return format.replace(/%([YymnbdeHhMS3a])/g, (_, c: string) => {
    switch (c) {
      case 'Y':
        return String(d.getFullYear());
      case 'y':
        return two(d.getFullYear() % 100);
      case 'm':
        return two(d.getMonth() + 1);
      case 'n':
        return String(d.getMonth() + 1);
      case 'b':
        return MONTHS[d.getMonth()]!;
      case 'd':
        return two(d.getDate());
      case 'e':
        return String(d.getDate());
      case 'H':
        return two(d.getHours());
      case 'h':
        return String(d.getHours());
      case 'M':
        return two(d.getMinutes());
      case 'S':
        return two(d.getSeconds());
      case '3':
        return String(d.getMilliseconds()).padStart(3, '0');
      default:
        return DAYS[d.getDay()]!;
    }
  });
}

function dateOf(value: Value): Value {
  if (typeof value !== 'boolean' && toText(value) === '') return '';
  return toDate(value);
}

let lastClock = NaN;
let lastMidnight = NaN;
/** Local midnight of the day of `clock` (remembered for the last clock: one per submission). */
function localMidnight(clock: number): number {
  if (clock !== lastClock) {
    const d = new Date(clock);
    lastMidnight = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    lastClock = clock;
  }
  return lastMidnight;
}

const regexCache = new Map<string, RegExp | null>();
function regex(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** XPath 1.0 substring(): 1-based, rounded positions. */
function substring(s: string, start: number, length?: number): string {
  const first = Math.round(start);
  const last = length === undefined ? Infinity : first + Math.round(length);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const p = i + 1;
    if (p >= first && p < last) out += s[i];
  }
  return out;
}

function minMax(args: Value[], pick: (a: number, b: number) => number): number {
  const ns = numbersOf(args);
  if (ns.length === 0) return NaN;
  let out = ns[0]!;
  for (const n of ns) {
    if (Number.isNaN(n)) return NaN;
    out = pick(out, n);
  }
  return out;
}

export const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  // if() and coalesce() are compiled lazily (compile.ts); these entries give their arity.
  if: { min: 3, max: 3, truthArgs: true, call: (a) => (toBoolean(arg(a, 0)) ? arg(a, 1) : arg(a, 2)) },
  coalesce: { min: 2, max: 2, call: (a) => (isEmpty(arg(a, 0)) ? arg(a, 1) : arg(a, 0)) },
  true: { min: 0, max: 0, call: () => true },
  false: { min: 0, max: 0, call: () => false },
  not: { min: 1, max: 1, truthArgs: true, call: (a) => !toBoolean(arg(a, 0)) },
  boolean: { min: 1, max: 1, truthArgs: true, call: (a) => toBoolean(arg(a, 0)) },
  'boolean-from-string': {
    min: 1,
    max: 1,
    call: (a) => {
      const t = toText(arg(a, 0));
      return t === 'true' || t === '1';
    },
  },
  number: { min: 0, max: 1, call: (a, s) => toNumber(a.length ? arg(a, 0) : currentOf(s)) },
  string: { min: 0, max: 1, call: (a, s) => toText(a.length ? arg(a, 0) : currentOf(s)) },
  int: {
    min: 1,
    max: 1,
    call: (a) => {
      const n = toNumber(arg(a, 0));
      return Number.isFinite(n) ? Math.trunc(n) : n;
    },
  },
  round: { min: 1, max: 2, call: (a) => round(toNumber(arg(a, 0)), a.length > 1 ? toNumber(arg(a, 1)) : 0) },
  floor: { min: 1, max: 1, call: (a) => Math.floor(toNumber(arg(a, 0))) },
  ceiling: { min: 1, max: 1, call: (a) => Math.ceil(toNumber(arg(a, 0))) },
  abs: { min: 1, max: 1, call: (a) => Math.abs(toNumber(arg(a, 0))) },
  pow: { min: 2, max: 2, call: (a) => Math.pow(toNumber(arg(a, 0)), toNumber(arg(a, 1))) },
  min: { min: 1, max: Infinity, call: (a) => minMax(a, Math.min) },
  max: { min: 1, max: Infinity, call: (a) => minMax(a, Math.max) },
  count: { min: 1, max: 1, nodeSetArgs: [0], call: (a) => texts(arg(a, 0)).length },
  'count-non-empty': {
    min: 1,
    max: 1,
    nodeSetArgs: [0],
    call: (a) => texts(arg(a, 0)).filter((t) => t !== '').length,
  },
  sum: {
    min: 1,
    max: 1,
    nodeSetArgs: [0],
    call: (a) => texts(arg(a, 0)).reduce((total, t) => total + toNumber(t), 0),
  },
  position: { min: 0, max: 1, call: (_a, s) => positionOf(s) },
  'string-length': { min: 0, max: 1, call: (a, s) => toText(a.length ? arg(a, 0) : currentOf(s)).length },
  'normalize-space': {
    min: 0,
    max: 1,
    call: (a, s) =>
      toText(a.length ? arg(a, 0) : currentOf(s))
        .split(/[ \t\r\n]+/)
        .filter(Boolean)
        .join(' '),
  },
  concat: {
    min: 0,
    max: Infinity,
    call: (a) => {
      let out = '';
      for (const v of a) {
        if (v instanceof NodeSet) for (const t of v.values) out += t;
        else out += toText(v);
      }
      return out;
    },
  },
  join: {
    min: 1,
    max: Infinity,
    call: (a) =>
      a
        .slice(1)
        .flatMap((v) => texts(v))
        .join(toText(arg(a, 0))),
  },
  contains: { min: 2, max: 2, call: (a) => toText(arg(a, 0)).includes(toText(arg(a, 1))) },
  'starts-with': { min: 2, max: 2, call: (a) => toText(arg(a, 0)).startsWith(toText(arg(a, 1))) },
  'ends-with': { min: 2, max: 2, call: (a) => toText(arg(a, 0)).endsWith(toText(arg(a, 1))) },
  'substring-before': {
    min: 2,
    max: 2,
    call: (a) => {
      const s = toText(arg(a, 0));
      const i = s.indexOf(toText(arg(a, 1)));
      return i < 0 ? '' : s.slice(0, i);
    },
  },
  'substring-after': {
    min: 2,
    max: 2,
    call: (a) => {
      const s = toText(arg(a, 0));
      const sep = toText(arg(a, 1));
      const i = s.indexOf(sep);
      return i < 0 ? '' : s.slice(i + sep.length);
    },
  },
  substring: {
    min: 2,
    max: 3,
    call: (a) =>
      substring(toText(arg(a, 0)), toNumber(arg(a, 1)), a.length > 2 ? toNumber(arg(a, 2)) : undefined),
  },
  substr: {
    min: 2,
    max: 3,
    call: (a) => toText(arg(a, 0)).slice(toNumber(arg(a, 1)), a.length > 2 ? toNumber(arg(a, 2)) : undefined),
  },
  translate: {
    min: 3,
    max: 3,
    call: (a) => {
      const from = toText(arg(a, 1));
      const to = toText(arg(a, 2));
      let out = '';
      for (const c of toText(arg(a, 0))) {
        const i = from.indexOf(c);
        if (i < 0) out += c;
        else if (i < to.length) out += to[i];
      }
      return out;
    },
  },
  regex: {
    min: 2,
    max: 2,
    call: (a) => regex(toText(arg(a, 1)))?.test(toText(arg(a, 0))) ?? false,
  },
  selected: {
    min: 2,
    max: 2,
    call: (a) => hasToken(toText(arg(a, 0)), toText(arg(a, 1)).trim()),
  },
  'count-selected': { min: 1, max: 1, call: (a) => countTokens(toText(arg(a, 0))) },
  'selected-at': {
    min: 2,
    max: 2,
    call: (a) => tokens(arg(a, 0))[toNumber(arg(a, 1))] ?? '',
  },
  today: { min: 0, max: 0, call: (_a, s) => new DateValue(localMidnight(clockOf(s))) },
  now: { min: 0, max: 0, call: (_a, s) => new DateValue(clockOf(s)) },
  date: { min: 1, max: 1, call: (a) => dateOf(arg(a, 0)) },
  'date-time': { min: 1, max: 1, call: (a) => dateOf(arg(a, 0)) },
  'decimal-date-time': { min: 1, max: 1, call: (a) => toDate(arg(a, 0)).time / MS_PER_DAY },
  'format-date': { min: 2, max: 2, call: (a) => formatDateWith(arg(a, 0), toText(arg(a, 1))) },
  'format-date-time': { min: 2, max: 2, call: (a) => formatDateWith(arg(a, 0), toText(arg(a, 1))) },
};
