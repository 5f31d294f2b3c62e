import { sharedOpenApiSchemas } from '../openapi.ts';
import { objectMembers, toJsonSchema, type JsonSchema } from './json-schema.ts';
import type { AnyRouteSpec, ResponseSpec } from './route.ts';

/** What a service says about itself in its document, besides its routes. */
export interface DocumentOptions {
  title: string;
  version?: string;
  description: string;
  routes: AnyRouteSpec[];
  /**
   * Problem statuses any route may answer before its handler runs (401 from the gateway's
   * token check, 413 from the body parser, 503 while a store is down...), with their meaning.
   */
  commonProblems?: Record<number, string>;
  /** Requirements of routes not `public` (default: the bearer scheme). */
  security?: Record<string, string[]>[];
  /** `components.securitySchemes`; default: the bearer token the gateway checks. */
  securitySchemes?: Record<string, JsonSchema>;
  /** Extra component schemas referenced by hand-written schemas. */
  schemas?: Record<string, JsonSchema>;
}

/** An OpenAPI 3.1 document as generated here (typed loosely: it is served as JSON). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
  [key: string]: unknown;
}

const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** Problems that always carry `Retry-After` (libs/problem `tooManyRequests`, stores unavailable). */
const RETRY_AFTER_STATUSES = new Set(['429', '503']);
const problemResponse = (status: string, description: string, extra: Record<string, JsonSchema> = {}) => ({
  description,
  ...(RETRY_AFTER_STATUSES.has(status)
    ? {
        headers: {
          'Retry-After': {
            description: 'Seconds to wait before retrying',
            schema: { type: 'integer', minimum: 1 },
          },
        },
      }
    : {}),
  content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } }, ...extra },
});

function responseObject(spec: ResponseSpec, components: Record<string, JsonSchema>): JsonSchema {
  const content: Record<string, JsonSchema> = {};
  if (spec.body) content['application/json'] = { schema: toJsonSchema(spec.body, components) };
  for (const [type, schema] of Object.entries(spec.content ?? {}))
    content[type] = schema ? { schema: toJsonSchema(schema, components) } : {};
  return {
    description: spec.description,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

function operation(
  route: AnyRouteSpec,
  common: Record<number, string>,
  components: Record<string, JsonSchema>,
  security: Record<string, string[]>[],
) {
  const parameters = [
    ...(route.params
      ? objectMembers(route.params, components).map((m) => ({ in: 'path', ...m, required: true }))
      : []),
    ...(route.query ? objectMembers(route.query, components).map((m) => ({ in: 'query', ...m })) : []),
    ...Object.entries(route.headers ?? {}).map(([name, h]) => ({
      in: 'header',
      name,
      description: h.description,
      required: h.required ?? false,
      schema: h.schema ?? { type: 'string' },
    })),
  ];
  const requestContent: Record<string, JsonSchema> = {};
  if (route.body) requestContent['application/json'] = { schema: toJsonSchema(route.body, components) };
  for (const [type, schema] of Object.entries(route.requestContent ?? {})) requestContent[type] = { schema };
  const responses: Record<string, JsonSchema> = {};
  // A conditional GET whose ETag still matches: Express answers 304 by itself.
  if (route.method === 'get')
    responses['304'] = { description: 'Not modified: If-None-Match matches the ETag' };
  // What the base app answers for any route: a request it cannot read (the JSON body parser runs
  // for every route, even a GET; the router decodes the path), and text no store can keep.
  const framework: Record<number, string> = {
    400: 'The request cannot be read: a path that is not valid percent-encoded UTF-8, a body that is not valid JSON (`invalid_json`), or a malformed upload',
    413: 'The body is over the size limit (`payload_too_large`)',
    415: 'The body encoding is not supported (`unsupported_encoding`)',
    422: 'Invalid input (`validation_failed`, `errors` by field), e.g. text no store can keep (NUL, lone surrogates)',
  };
  if (route.params) framework[404] = route.notFound ?? 'Not found.';
  for (const [status, spec] of Object.entries(route.responses))
    responses[status] = responseObject(spec, components);
  const problemContent: Record<string, JsonSchema> = {};
  for (const [type, schema] of Object.entries(route.problemContent ?? {}))
    problemContent[type] = schema ? { schema: toJsonSchema(schema, components) } : {};
  for (const [status, description] of Object.entries({ ...framework, ...common, ...route.problems }))
    responses[status] = problemResponse(status, description, problemContent);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.tags ? { tags: route.tags } : {}),
    ...(route.access === 'public' ? { security: [] } : {}),
    ...(route.access === 'optional' ? { security: [{}, ...security] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(requestContent).length
      ? {
          requestBody: {
            required: route.bodyRequired ?? true,
            content: requestContent,
          },
        }
      : {}),
    responses,
  };
}

/** The `$ref`s of `node` (any depth) that do not point at an existing `#/components/schemas/<name>`. */
function danglingRefs(
  node: unknown,
  schemas: Record<string, unknown>,
  found: Set<string> = new Set(),
): Set<string> {
  if (Array.isArray(node)) for (const item of node) danglingRefs(item, schemas, found);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.startsWith('#/components/schemas/') ? value.slice(21) : undefined;
        if (name === undefined || !Object.hasOwn(schemas, name)) found.add(value);
      } else danglingRefs(value, schemas, found);
    }
  return found;
}

/**
 * Generates a service's OpenAPI 3.1 document from its route declarations: one operation per
 * route with its parameters (path, query, header), request body, answers and problem answers
 * (each referencing the one `Problem` schema). Named joi schemas become `components.schemas`.
 *
 * @throws Error when two routes share a method and path or an operationId, or a `$ref` points
 *   at no component schema (declaration bugs, found when the service starts).
 */
export function openApiDocument(opts: DocumentOptions): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const ids = new Set<string>();
  const security = opts.security ?? [{ bearer: [] }];
  for (const route of opts.routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`two routes declare ${route.method.toUpperCase()} ${route.path}`);
    if (ids.has(route.operationId)) throw new Error(`two routes declare operationId ${route.operationId}`);
    ids.add(route.operationId);
    item[route.method] = operation(route, opts.commonProblems ?? {}, components, security);
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version ?? '1.0.0', description: opts.description },
    servers: [{ url: '/' }],
    security,
    paths,
    components: {
      securitySchemes: opts.securitySchemes ?? {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal access token `<id>|<secret>` or the session cookie, checked by the gateway.',
        },
      },
      schemas: { ...sharedOpenApiSchemas, ...opts.schemas, ...components },
    },
  };
  const dangling = danglingRefs({ paths, schemas: document.components.schemas }, document.components.schemas);
  if (dangling.size) throw new Error(`${opts.title}: references to no schema: ${[...dangling].join(', ')}`);
  return document;
}
