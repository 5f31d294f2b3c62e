/**
 * The function library: XPath 1.0 core functions and the ODK XForms additions
 * (getodk.github.io/xforms-spec, "XPath Functions"). Each entry gives its arity, checked when an
 * expression is compiled, and its implementation over evaluated arguments.
 */
import {
  DateValue,
  MS_PER_DAY,
  NodeSet,
  formatDate,
  toBoolean,
  toDate,
  toNumber,
  toText,
  type Value,
} from './values.ts';

/** What a function sees of the evaluation besides its arguments. */
export interface FunctionScope {
  /** The value of `.` (the field's own answer). */
  current(): Value;
  /** 1-based position of the current repeat instance (position(..)). */
  position(): number;
  /** The clock, in milliseconds since the epoch. */
  now(): number;
}

export interface FunctionSpec {
  min: number;
  max: number;
  /** Argument indexes that must be node-sets (a reference or a path). */
  nodeSetArgs?: readonly number[];
  call(args: Value[], scope: FunctionScope): Value;
}

const texts = (value: Value): readonly string[] =>
  value instanceof NodeSet ? value.values : [toText(value)];
const tokens = (value: Value): string[] => toText(value).split(/\s+/).filter(Boolean);
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
  const shifted = Number((Math.abs(n) * scale).toPrecision(15));
  return (Math.sign(n) * Math.round(shifted)) / scale;
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
  if: { min: 3, max: 3, call: (a) => (toBoolean(arg(a, 0)) ? arg(a, 1) : arg(a, 2)) },
  coalesce: { min: 2, max: 2, call: (a) => (isEmpty(arg(a, 0)) ? arg(a, 1) : arg(a, 0)) },
  true: { min: 0, max: 0, call: () => true },
  false: { min: 0, max: 0, call: () => false },
  not: { min: 1, max: 1, call: (a) => !toBoolean(arg(a, 0)) },
  boolean: { min: 1, max: 1, call: (a) => toBoolean(arg(a, 0)) },
  'boolean-from-string': {
    min: 1,
    max: 1,
    call: (a) => {
      const t = toText(arg(a, 0));
      return t === 'true' || t === '1';
    },
  },
  number: { min: 0, max: 1, call: (a, s) => toNumber(a.length ? arg(a, 0) : s.current()) },
  string: { min: 0, max: 1, call: (a, s) => toText(a.length ? arg(a, 0) : s.current()) },
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
  position: { min: 0, max: 1, call: (_a, s) => s.position() },
  'string-length': { min: 0, max: 1, call: (a, s) => toText(a.length ? arg(a, 0) : s.current()).length },
  'normalize-space': {
    min: 0,
    max: 1,
    call: (a, s) =>
      toText(a.length ? arg(a, 0) : s.current())
        .split(/[ \t\r\n]+/)
        .filter(Boolean)
        .join(' '),
  },
  concat: { min: 0, max: Infinity, call: (a) => a.map((v) => texts(v).join('')).join('') },
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
    call: (a) => tokens(arg(a, 0)).includes(toText(arg(a, 1)).trim()),
  },
  'count-selected': { min: 1, max: 1, call: (a) => tokens(arg(a, 0)).length },
  'selected-at': {
    min: 2,
    max: 2,
    call: (a) => tokens(arg(a, 0))[toNumber(arg(a, 1))] ?? '',
  },
  today: {
    min: 0,
    max: 0,
    call: (_a, s) => {
      const d = new Date(s.now());
      return new DateValue(new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime());
    },
  },
  now: { min: 0, max: 0, call: (_a, s) => new DateValue(s.now()) },
  date: { min: 1, max: 1, call: (a) => dateOf(arg(a, 0)) },
  'date-time': { min: 1, max: 1, call: (a) => dateOf(arg(a, 0)) },
  'decimal-date-time': { min: 1, max: 1, call: (a) => toDate(arg(a, 0)).time / MS_PER_DAY },
  'format-date': { min: 2, max: 2, call: (a) => formatDateWith(arg(a, 0), toText(arg(a, 1))) },
  'format-date-time': { min: 2, max: 2, call: (a) => formatDateWith(arg(a, 0), toText(arg(a, 1))) },
};

export { formatDate };
