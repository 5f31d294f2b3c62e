import fc from 'fast-check';
import {
  HOSTILE_AUTHORIZATIONS,
  HOSTILE_HEADERS,
  HOSTILE_QUERIES,
  HOSTILE_RAW_BODIES,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  HOSTILE_NUMBERS,
} from './hostile.ts';
import type { Operation } from './operations.ts';
import { sometimes, valueArbitrary } from './schema-arbitrary.ts';

/**
 * Who sends a request: the fixtures' owner, a signed-in user who owns nothing, nobody, or a
 * forged token. Not the services' `Actor` (the authenticated principal of a request): two of
 * the four kinds are no principal at all, which is what the fuzzer tries.
 */
export type Caller = 'owner' | 'stranger' | 'anonymous' | 'forged';

/** One generated request, printable as a counterexample. */
export interface FuzzRequest {
  /** `METHOD /template` of the operation it came from. */
  operation: string;
  method: string;
  /** Path and query exactly as sent on the wire. */
  url: string;
  caller: Caller;
  /** The forged caller's `Authorization` header. */
  authorization?: string;
  /** One extra hostile header, now and then. */
  header?: readonly [string, string];
  body?: { contentType: string; raw: string };
}

/** Valid values of path parameters by name (ids of the fixtures), used most of the time. */
export type Fixtures = Record<string, string[]>;

/** Valid values of body properties by name (`form_version_id`, `field_uuid`...), used often. */
export type BodyHints = Record<string, unknown[]>;

/** encodeURIComponent that cannot throw: an unpaired surrogate goes out as its (invalid) UTF-8 bytes. */
export const encode = (value: unknown): string =>
  String(value)
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      /^[\ud800-\udfff]$/.test(part)
        ? `%ED%${(0xa0 + ((part.charCodeAt(0) >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (part.charCodeAt(0) & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(part),
    )
    .join('');

const SHORT_HOSTILE_STRINGS = HOSTILE_STRINGS.filter((s) => s.length <= 400);

/**
 * A path segment: a fixture's id, a valid-looking value or a hostile one. The resource a
 * DELETE names (its last parameter) is never a fixture, only a spare (`deletable`), so the
 * fixtures survive every run.
 */
function segmentArbitrary(
  op: Operation,
  name: string,
  last: boolean,
  fixtures: Fixtures,
  deletable: Fixtures,
): fc.Arbitrary<string> {
  const deleting = op.method === 'delete' && last;
  const known = deleting ? (deletable[name] ?? []) : (fixtures[name] ?? []);
  const protectedIds = new Set(fixtures[name] ?? []);
  const schema = op.parameters.find((p) => p.name === name && p.in === 'path')?.schema ?? { type: 'string' };
  return fc
    .oneof(
      {
        weight: known.length ? 5 : 0,
        arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('1'),
      },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
      { weight: 1, arbitrary: valueArbitrary(schema, { resolve: op.resolve, hostility: 0 }).map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...SHORT_HOSTILE_STRINGS, ...HOSTILE_NUMBERS).map(encode) },
    )
    .filter((segment) => !deleting || !protectedIds.has(segment));
}

/** A CSV body for operations that take one (`nom,email` rows, hostile cells mixed in). */
function csvArbitrary(): fc.Arbitrary<string> {
  const cell = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom(...SHORT_HOSTILE_STRINGS) },
  );
  const row = fc.tuple(cell, fc.oneof(fc.emailAddress(), cell)).map((cells) => cells.join(','));
  return fc.array(row, { maxLength: 5 }).map((rows) => ['nom,email', ...rows].join('\n'));
}

/** The query: declared parameters (valid or hostile values, each maybe absent), sometimes a raw hostile one. */
function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const declared = op.parameters.filter((p) => p.in === 'query');
  const parts = declared.map((p) =>
    sometimes(
      fc
        .oneof(
          {
            weight: 3,
            arbitrary: valueArbitrary(p.schema ?? { type: 'string' }, { resolve: op.resolve, hostility: 0 }),
          },
          { weight: 2, arbitrary: fc.constantFrom<unknown>(...SHORT_HOSTILE_STRINGS, ...HOSTILE_NUMBERS) },
        )
        .map((v) => `${encode(p.name)}=${encode(typeof v === 'object' ? JSON.stringify(v) : v)}`),
      1,
    ),
  );
  return fc
    .tuple(fc.tuple(...parts), sometimes(fc.constantFrom(...HOSTILE_QUERIES), 6))
    .map(([declaredParts, raw]) => [...declaredParts, raw].filter((x): x is string => !!x).join('&'));
}

/** The body: from the schema (hostile members mixed in), or a raw hostile body; none or junk when the operation takes none. */
function bodyArbitrary(op: Operation, hints: BodyHints): fc.Arbitrary<FuzzRequest['body']> {
  const raw = fc
    .constantFrom(...HOSTILE_RAW_BODIES)
    .map(([text, type]) => ({ contentType: type ?? 'application/json', raw: text }));
  if (op.body) {
    const json = valueArbitrary(op.body, { resolve: op.resolve, hostility: 1, hints }).map((v) => ({
      contentType: 'application/json',
      raw: JSON.stringify(v) ?? 'null',
    }));
    const multipart = json.map(({ raw: text }) => ({
      contentType: 'multipart/form-data; boundary=fuzz',
      raw:
        `--fuzz\r\nContent-Disposition: form-data; name="submission"\r\n\r\n${text}\r\n` +
        `--fuzz\r\nContent-Disposition: form-data; name="photo"; filename="a\u0000.png"\r\n` +
        `Content-Type: image/png\r\n\r\n\u0089PNG\r\n--fuzz--\r\n`,
    }));
    return fc.oneof(
      { weight: 6, arbitrary: json },
      { weight: 1, arbitrary: raw },
      { weight: op.mediaTypes.includes('multipart/form-data') ? 2 : 0, arbitrary: multipart },
    );
  }
  if (op.method === 'get' || op.method === 'delete') return sometimes(raw, 8);
  if (op.mediaTypes.includes('text/csv'))
    return fc.oneof(
      { weight: 3, arbitrary: csvArbitrary().map((text) => ({ contentType: 'text/csv', raw: text })) },
      { weight: 1, arbitrary: raw },
    );
  return sometimes(raw, 1);
}

/** Requests for one operation, with every caller. */
export function requestArbitrary(
  op: Operation,
  fixtures: Fixtures,
  hints: BodyHints = {},
  deletable: Fixtures = {},
): fc.Arbitrary<FuzzRequest> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return fc
    .record({
      segments: fc.tuple(
        ...names.map((n, i) => segmentArbitrary(op, n, i === names.length - 1, fixtures, deletable)),
      ),
      query: queryArbitrary(op),
      body: bodyArbitrary(op, hints),
      caller: fc.constantFrom<Caller>('owner', 'owner', 'stranger', 'anonymous', 'forged'),
      authorization: fc.constantFrom(...HOSTILE_AUTHORIZATIONS),
      header: sometimes(fc.constantFrom(...HOSTILE_HEADERS), 5),
      // now and then a method the operation does not have (never DELETE: the fixtures must survive)
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant(op.method.toUpperCase()) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') },
      ),
    })
    .map(({ segments, query, body, caller, authorization, header, method }) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]!);
      return {
        operation: `${op.method.toUpperCase()} ${op.path}`,
        method,
        url: query ? `${path}?${query}` : path,
        caller,
        ...(caller === 'forged' ? { authorization } : {}),
        ...(header ? { header } : {}),
        ...(body ? { body } : {}),
      };
    });
}
