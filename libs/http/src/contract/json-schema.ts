import Joi from 'joi';
import joiToJson from 'joi-to-json';

// joi-to-json is CommonJS (`module.exports = parse`) while its types declare a named export.
const parse = joiToJson as unknown as (
  joi: Joi.Schema,
  mode: 'open-api-3.1',
  definitions: object,
) => JsonSchema;

/** A JSON Schema (OpenAPI 3.1 dialect, i.e. draft 2020-12) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/** Where a contract's schema comes from: a joi schema (converted) or a JSON Schema written as is. */
export type SchemaSource = Joi.Schema | JsonSchema;

/**
 * Converts a joi schema to OpenAPI 3.1 JSON Schema with joi-to-json. Named joi schemas
 * (`Joi.object({...}).id('Invite')`) are written once into `components` (the document's
 * `components.schemas`) and referenced as `#/components/schemas/Invite`. A JSON Schema given as
 * is comes back unchanged.
 */
export function toJsonSchema(source: SchemaSource, components: Record<string, JsonSchema>): JsonSchema {
  if (!Joi.isSchema(source)) return source;
  const out = parse(source, 'open-api-3.1', components);
  delete out.schemas;
  dropRegExpProperties(out);
  for (const component of Object.values(components)) dropRegExpProperties(component);
  return out;
}

/**
 * joi-to-json writes a RegExp key pattern (`Joi.object().pattern(/^\d+$/, value)`) both as
 * `patternProperties` and as a stray property named after the RegExp (`"/^\d+$/"`): the stray
 * one goes, so maps keyed by ids are documented as what they are.
 */
function dropRegExpProperties(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropRegExpProperties);
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  const patterns = schema.patternProperties as Record<string, unknown> | undefined;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (patterns && properties) for (const p of Object.keys(patterns)) delete properties[`/${p}/`];
  Object.values(schema).forEach(dropRegExpProperties);
}

/** The keys of a joi object schema with their JSON Schemas and whether each is required. */
export function objectMembers(
  source: Joi.ObjectSchema,
  components: Record<string, JsonSchema>,
): { name: string; schema: JsonSchema; required: boolean; description?: string }[] {
  const object = toJsonSchema(source, components);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      schema: rest,
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}
