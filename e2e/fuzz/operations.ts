import type { Resolve, Schema } from './schema-arbitrary.ts';
import { resolverFor } from './schema-arbitrary.ts';

/** A parameter of an operation (path or query; headers and cookies are not fuzzed). */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

/** One operation of one OpenAPI document, with what the fuzzer needs to build requests. */
export interface Operation {
  /** The component whose document declares it (`gateway`, `collection`, `polls`, `events`). */
  component: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path template, `{name}` for path parameters. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body schema, when the operation takes one. */
  body?: Schema;
  /** Declared request media types (`application/json`, `multipart/form-data`, `text/csv`...). */
  mediaTypes: string[];
  resolve: Resolve;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Doc {
  paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
}

/**
 * Every operation of an OpenAPI 3.1 document: path-item and operation parameters merged
 * (references resolved), the `application/json` body schema when there is one.
 */
export function operationsOf(component: string, doc: unknown): Operation[] {
  const resolve = resolverFor(doc);
  const out: Operation[] = [];
  for (const [path, item] of Object.entries((doc as Doc).paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as
        | {
            parameters?: Parameter[];
            requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
          }
        | undefined;
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(
        (p) => resolve(p as Schema) as unknown as Parameter,
      );
      const content =
        (resolve((op.requestBody ?? {}) as Schema) as { content?: Record<string, { schema?: Schema }> })
          .content ?? {};
      const json = content['application/json']?.schema;
      out.push({
        component,
        method,
        path,
        parameters: params,
        ...(json ? { body: json } : {}),
        mediaTypes: Object.keys(content),
        resolve,
      });
    }
  }
  return out;
}
