/**
 * Catalogues of hostile inputs the API fuzzer mixes into otherwise valid requests: the classes
 * of input that once gave 500s (issue 14, item 5) and their neighbours.
 */

/** Deeply nested JSON: `[[[...]]]` `depth` levels deep (PostgreSQL's jsonb parser and recursive walkers choke). */
const deepArray = (depth: number): unknown => {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** Deeply nested objects: `{a: {a: ...}}`. */
const deepObject = (depth: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** `n` distinct words separated by spaces: long text whose derived data (search vectors) grows fastest. */
const distinctWords = (n: number): string =>
  Array.from({ length: n }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`).join(' ');

/** Strings no database should see raw: NUL, unpaired surrogates, empty, huge, injections, lookalikes. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '😀',
  'x'.repeat(70_000),
  distinctWords(20_000),
  'é'.repeat(300),
  '2147483648',
  '9007199254740993',
  '-1',
  '0',
  '1e308',
  'NaN',
  'null',
  'true',
  "' OR 1=1 --",
  '$gt',
  '{"$ne": null}',
  '../../etc/passwd',
  '%00',
  '%ED%A0%80',
  '=cmd|/c calc',
  '2026-02-30',
  '2026-13-01T25:61:00',
  '0000-00-00',
  '99999-01-01T00:00:00Z',
  'not-an-email',
  'a@b',
  '<script>alert(1)</script>',
  '\r\n',
];

/** Numbers at and beyond every column's and every parser's edge. */
export const HOSTILE_NUMBERS: readonly number[] = [
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e308,
  -1e308,
  -1,
  0,
  -0,
  0.5,
  1.000001,
  5e-324,
  Number.MAX_SAFE_INTEGER,
];

/** Values of the wrong shape for anything: null, booleans, empty and odd containers, deep nesting. */
export const HOSTILE_SHAPES: readonly unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [null],
  [{}],
  { $gt: '' },
  { constructor: { prototype: { polluted: true } } },
  ['a', 1, null, {}],
  deepArray(64),
  deepObject(64),
  deepArray(2_000),
  deepObject(2_000),
];

/** Every hostile JSON value. */
export const HOSTILE_VALUES: readonly unknown[] = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...HOSTILE_SHAPES];

/**
 * An OpenRosa submission body (issue 35): `xml` as the `xml_submission_file` part of a multipart
 * body, as ODK Collect sends it.
 */
const openRosaPart = (xml: string): readonly [string, string] => [
  '--x\r\nContent-Disposition: form-data; name="xml_submission_file"; filename="submission.xml"\r\n' +
    `Content-Type: text/xml\r\n\r\n${xml}\r\n--x--\r\n`,
  'multipart/form-data; boundary=x',
];

/**
 * Whole request bodies as raw text, sent with `Content-Type: application/json` unless the
 * second member says otherwise: JSON that is not an object, broken JSON, wrong media types.
 */
export const HOSTILE_RAW_BODIES: ReadonlyArray<readonly [string, string?]> = [
  ['null'],
  ['42'],
  ['1e309'],
  ['"a string"'],
  ['true'],
  ['[]'],
  ['[{}]'],
  ['{'],
  [''],
  ['{"a":"\\u0000"}'],
  ['{"name":"\\ud800"}'],
  ['{"name":"\\udc00x"}'],
  ['{"__proto__":{"x":1}}'],
  ['{"a":1,"a":2}'],
  ['['.repeat(20_000) + ']'.repeat(20_000)],
  ['{"data":' + '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_001)],
  ['name=x&email=y', 'application/x-www-form-urlencoded'],
  ['{"name":"x"}', 'text/plain'],
  ['<a/>', 'application/xml'],
  ['{"name":"x"}', 'application/json; charset=utf-16'],
  ['{"name":"x"}', 'application/merge-patch+json'],
  [
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n--x--\r\n',
    'multipart/form-data; boundary=x',
  ],
  ['--x\r\nbroken', 'multipart/form-data; boundary=x'],
  ['a,b\n\u0000,\ud800\n', 'text/csv'],
  // OpenRosa instances (issue 35): an external entity, entity expansion ("billion laughs"), deep
  // nesting, a wrong instanceID, no XML at all.
  openRosaPart(
    '<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]><data id="fieldhouse-1" version="1"><a>&x;</a></data>',
  ),
  openRosaPart(
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><data id="fieldhouse-1" version="1"><a>&c;</a></data>',
  ),
  openRosaPart(`<data id="fieldhouse-1" version="1">${'<g>'.repeat(5_000)}${'</g>'.repeat(5_000)}</data>`),
  openRosaPart(
    '<data id="fieldhouse-1" version="1"><meta><instanceID>uuid:not-a-uuid</instanceID></meta></data>',
  ),
  openRosaPart('\u0000not xml'),
];

/**
 * Path segments, already percent-encoded as they go on the wire: ids past every column type,
 * broken percent-encodings (a lone surrogate encoded as UTF-8, a truncated escape, overlong
 * UTF-8), NUL, dot segments, a huge segment.
 */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '2147483648',
  '2147483647',
  '9007199254740993',
  '99999999999999999999999',
  '1e308',
  '-1',
  '0',
  '00000000001',
  '1.5',
  '0x10',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%ED%B0%80',
  '%',
  '%zz',
  '%C0%AF',
  '%FF',
  '%E2%82',
  '%F0%9F%98%80',
  '..',
  '%2e%2e',
  '%2F',
  'abc',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '------------------------------------',
  '0000000000000000000000000000000000-0',
  'gggggggg-gggg-gggg-gggg-gggggggggggg',
  '000000000000000000000000',
  'x'.repeat(4_000),
  '%20',
  'null',
];

/** Raw query strings (without `?`) appended as they are: broken encodings, NUL, qs's nested and array forms. */
export const HOSTILE_QUERIES: readonly string[] = [
  'page=%00',
  'search=%00',
  'search=%ED%A0%80',
  'search=%',
  'q=%zz',
  'page=2147483648',
  'page=1e308',
  'per_page=-1',
  'page[]=1&page[]=2',
  'page[a]=1',
  'search[$gt]=',
  'when[]=all',
  'a[b][c][d][e][f][g]=1',
  'status=%00&collector_id=2147483648',
  'collector_id=9007199254740993',
  'date_from=2026-02-30',
  'voter_fingerprint=%00',
  '%00=1',
  '%ED%A0%80=1',
  `search=${'x'.repeat(10_000)}`,
];

/** `Authorization` values of the forged caller: unknown, malformed, oversized and foreign-scheme credentials. */
export const HOSTILE_AUTHORIZATIONS: readonly string[] = [
  'Bearer 1|forgedforgedforgedforgedforgedforgedforged',
  'Bearer 2147483648|forged',
  'Bearer 99999999999999999999|forged',
  'Bearer -1|x',
  'Bearer |',
  'Bearer ',
  'Bearer',
  `Bearer ${'x'.repeat(6_000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.',
  'Basic Zm9vOmJhcg==',
  'bearer  1|x',
  'Bearer %00',
];

/** Extra request headers, one at a time: odd encodings, conditional requests, idempotency and CSRF values, forwarded chains. */
export const HOSTILE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-encoding', 'gzip'],
  ['content-encoding', 'br'],
  ['content-encoding', 'x-unknown'],
  ['if-none-match', '"' + 'x'.repeat(2_000) + '"'],
  ['if-none-match', '*'],
  ['if-modified-since', 'not a date'],
  ['idempotency-key', 'k'.repeat(300)],
  ['idempotency-key', 'é'],
  ['idempotency-key', ''],
  ['x-csrf-token', 'x'.repeat(5_000)],
  ['x-xsrf-token', '%ED%A0%80'],
  ['x-forwarded-for', '999.999.999.999, ::zz, ' + '1.1.1.1,'.repeat(200)],
  ['x-request-id', '../../etc/passwd'],
  ['accept', 'text/event-stream'],
  ['accept', 'application/xml'],
  ['accept-charset', 'utf-32'],
  ['cookie', 'fieldhouse_session=%ED%A0%80; XSRF-TOKEN=' + 'x'.repeat(3_000)],
  ['range', 'bytes=99999999999-'],
  ['range', 'bytes=-1--1'],
  ['origin', 'null'],
];
