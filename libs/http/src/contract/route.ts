import type { Request, RequestHandler, Response } from 'express';
import type Joi from 'joi';
import type { JsonSchema, SchemaSource } from './json-schema.ts';

/** The HTTP methods a route can answer (HEAD is answered by Express for every GET). */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented answer of a route with a 1xx-3xx status. */
export interface ResponseSpec {
  description: string;
  /** The `application/json` body; checked in tests (see conformance.ts). Omit for no body. */
  body?: SchemaSource;
  /**
   * Bodies in other media types (`text/csv`, `image/png`, `text/event-stream`...), each with an
   * optional schema; tests check only the content type of these.
   */
  content?: Record<string, SchemaSource | null>;
  /** Response headers, e.g. `{'Retry-After': {description, schema: {type: 'integer'}}}`. */
  headers?: Record<string, { description: string; schema?: JsonSchema }>;
}

/** A request header the route reads, documented as an OpenAPI header parameter. */
export interface HeaderSpec {
  description: string;
  required?: boolean;
  schema?: JsonSchema;
}

/**
 * A request body read and validated when called (memoised): given to a use case that must check
 * access first, so a caller without access gets 401, 404 or 403 before any 422 about the body.
 * @throws ProblemError 422 `validation_failed` naming each bad field.
 */
export type BodyReader<T> = () => T;

/**
 * What a route's handler gets: the path parameters, query and JSON body, each parsed by its
 * schema. With `parseBody: 'by-use-case'`, `body` is undefined and `readBody` parses it;
 * likewise `query` and `readQuery` with `parseQuery: 'by-use-case'`.
 */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The body parsed by the route's schema, on first call (the parsed `body` otherwise). */
  readBody: BodyReader<B>;
  /** The query parsed by the route's schema, on first call (the parsed `query` otherwise). */
  readQuery: BodyReader<Q>;
}

/** What a handler returns for the router to send: `res.status(status).set(headers).json(body)`. */
export interface Reply {
  /** Default 200, or 204 when there is no body. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One route of a service, declared once: the schemas that parse its input, the answers it may
 * give, and the handler. The router (router.ts) parses with these schemas; the OpenAPI
 * document (document.ts) is generated from them; the tests check every answer against it.
 *
 * - `path` is written the OpenAPI way (`/api/events/{event_id}`).
 * - `params`: a path parameter that fails its schema is a 404 problem (nothing can have that
 *   id) with `notFound` as its detail; `query` and `body` failures are 422 `validation_failed`
 *   listing every bad field (unknown members are dropped).
 * - `problems`: every 4xx/5xx status the route itself may answer, with what it means; all are
 *   RFC 9457 problem documents (`components.schemas.Problem`).
 * - `handler` returns a {@link Reply}, or nothing when it wrote the answer itself (files, streams).
 */
export interface RouteSpec<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = unknown,
  C = unknown,
> {
  method: HttpMethod;
  path: string;
  /** Unique in the service, camelCase (`createInvite`); clients' generated methods use it. */
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  /** The `application/json` request body. */
  body?: Joi.Schema<B>;
  /**
   * When the body is parsed: `before-handler` (default: a 422 comes before anything else), or
   * `by-use-case` (the handler passes `readBody` to a use case that checks access first).
   */
  parseBody?: 'before-handler' | 'by-use-case';
  /** When the query is parsed: as {@link parseBody} (`by-use-case`: `query` is undefined, `readQuery` parses). */
  parseQuery?: 'before-handler' | 'by-use-case';
  /** Request bodies in other media types (multipart, CSV), parsed by the handler. */
  requestContent?: Record<string, JsonSchema>;
  /** Whether a body is required (default: when `body` or `requestContent` is given). */
  bodyRequired?: boolean;
  headers?: Record<string, HeaderSpec>;
  responses: Record<number, ResponseSpec>;
  problems?: Record<number, string>;
  /**
   * Media types other than `application/problem+json` in which this route also answers its
   * problems (the OpenRosa routes answer an `OpenRosaResponse` in `text/xml`), each with an
   * optional schema; tests check only the content type of these.
   */
  problemContent?: Record<string, SchemaSource | null>;
  /** The 404 detail when a path parameter fails its schema (default `Not found.`). */
  notFound?: string;
  /**
   * Express middleware to run before parsing (a body parser, a rate limiter, a sign-in check),
   * built once from the context when the router is made.
   */
  middleware?: (ctx: C) => RequestHandler[];
  /** `public`: no authentication (documented with `security: []`). */
  access?: 'authenticated' | 'public' | 'optional';
  /**
   * Runs the use case: `input` parsed by the schemas, `ctx` the service's dependencies (given to
   * the router, so declarations need none and the document is generated without a database).
   */
  handler: (
    input: RouteInput<P, Q, B>,
    ctx: C,
    req: Request,
    res: Response,
  ) => Promise<Reply | void> | Reply | void;
}

/**
 * Declares a route; the identity function that lets TypeScript infer the handler's input from
 * the schemas (`Joi.object<CreateInvite>({...})` gives `body: CreateInvite`).
 */
export function defineRoute<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = unknown,
  C = unknown,
>(spec: RouteSpec<P, Q, B, C>): RouteSpec<P, Q, B, C> {
  return spec;
}

/**
 * {@link defineRoute} bound to a service's context type, so handlers get a typed `ctx` while
 * the input types are still inferred: `export const route = routeDeclarer<EventsContext>();`.
 */
export const routeDeclarer =
  <C>() =>
  <P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(spec: RouteSpec<P, Q, B, C>) =>
    spec;

/** Any route of a service with context `C`, whatever its input types (what routers and documents take). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteSpec<C = any> = RouteSpec<any, any, any, C>;

/** `/api/events/{event_id}` → `/api/events/:event_id` (Express 5 syntax). */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
