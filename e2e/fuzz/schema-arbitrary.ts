import fc from 'fast-check';
import { HOSTILE_VALUES } from './hostile.ts';

/** The subset of JSON Schema (OpenAPI 3.1) the documents use. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** Resolves `#/components/schemas/X` references against the document they come from. */
export type Resolve = (schema: Schema) => Schema;

/** A resolver for `doc` (local `#/...` references only, followed until a non-reference). */
export function resolverFor(doc: unknown): Resolve {
  const resolve: Resolve = (schema) => {
    let s = schema;
    for (let hops = 0; s?.$ref && hops < 20; hops++) {
      let node: unknown = doc;
      for (const part of s.$ref.replace(/^#\//, '').split('/'))
        node = (node as Record<string, unknown>)?.[part];
      s = (node ?? {}) as Schema;
    }
    return s ?? {};
  };
  return resolve;
}

/**
 * How to generate: where references resolve, how often a value is hostile (weight against 10),
 * and known-good values by property name (fixture ids: `form_version_id`, `field_uuid`...) that
 * let a body reach past the "unknown id" checks.
 */
export interface Gen {
  resolve: Resolve;
  hostility: number;
  hints?: Record<string, unknown[]>;
}

/** `arb` once in `1 + rest` draws, else undefined (fc.option's `freq` is the other way round). */
export const sometimes = <T>(arb: fc.Arbitrary<T>, rest: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: rest, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** One hostile value from the catalogue (any type: the point is the wrong one). */
const hostileValue = (): fc.Arbitrary<unknown> => fc.constantFrom(...HOSTILE_VALUES);

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  date: fc
    .date({ min: new Date('1990-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  'date-time': fc
    .date({ min: new Date('1990-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
};

/** A value the schema accepts (as far as this generator knows), without hostile members. */
function validValue(schema: Schema, g: Gen, depth: number): fc.Arbitrary<unknown> {
  const s = g.resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (s.allOf?.length) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf.map(g.resolve)) {
      Object.assign(merged.properties!, part.properties);
      merged.required!.push(...(part.required ?? []));
    }
    return validValue(merged, g, depth);
  }
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => valueArbitrary(a, g, depth)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
  if (!types.length) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((t) => typed(t, s, g, depth)));
}

function typed(t: string, s: Schema, g: Gen, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'string':
      return (
        (s.format ? FORMATS[s.format] : undefined) ??
        fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, 64) })
      );
    case 'array':
      if (depth > 6) return fc.constant([]);
      return fc.array(valueArbitrary(s.items ?? {}, g, depth + 1), {
        minLength: Math.min(s.minItems ?? 0, 3),
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case 'object':
      return objectArbitrary(s, g, depth);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/**
 * An object with the schema's properties: required ones usually present, optional ones
 * sometimes, each value valid or (with weight `hostility`) hostile; now and then a required
 * one dropped or an unknown one added.
 */
function objectArbitrary(s: Schema, g: Gen, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant({});
  const required = new Set(s.required ?? []);
  const entries = Object.entries(s.properties ?? {});
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of entries) {
    const generated = valueArbitrary(prop, g, depth + 1);
    const known = g.hints?.[name];
    record[name] = known?.length
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: generated })
      : generated;
  }
  const optional = entries.map(([n]) => n).filter((n) => !required.has(n));
  const dropRequired = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.subarray([...required]) },
  );
  const extra = sometimes(
    fc.tuple(fc.constantFrom('$where', 'id', 'user_id', '__proto__', '\u0000', 'é'), hostileValue()),
    6,
  );
  return fc
    .tuple(fc.record(record), dropRequired, fc.subarray(optional), extra)
    .map(([value, drop, keep, added]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (drop.includes(k)) continue;
        if (!required.has(k) && !keep.includes(k)) continue;
        out[k] = v;
      }
      if (added) Object.defineProperty(out, added[0], { value: added[1], enumerable: true, writable: true });
      return out;
    });
}

/**
 * A value for `schema`: valid most of the time, hostile (any type, see hostile.ts) with weight
 * `g.hostility` against 10 at every level, so one request usually carries one or two bad members.
 */
export function valueArbitrary(schema: Schema, g: Gen, depth = 0): fc.Arbitrary<unknown> {
  if (!g.hostility) return validValue(schema, g, depth);
  return fc.oneof(
    { weight: 10, arbitrary: validValue(schema, g, depth) },
    { weight: g.hostility, arbitrary: hostileValue() },
  );
}
