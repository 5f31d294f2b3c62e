import { Router, type Request, type RequestHandler, type Response } from 'express';
import type Joi from 'joi';
import { joiErrors, notFound, validate } from '@fieldhouse/problem';
import { ContractChecker, contractCheckEnabled } from './conformance.ts';
import type { OpenApiDocument } from './document.ts';
import { expressPath, type AnyRouteSpec, type Reply } from './route.ts';

/** Sends a handler's {@link Reply}: status (default 200, or 204 without a body), headers, JSON body. */
function sendReply(res: Response, reply: Reply): void {
  res.status(reply.status ?? (reply.body === undefined ? 204 : 200));
  if (reply.headers) res.set(reply.headers);
  if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

/**
 * The path parameters parsed by the route's schema.
 * @throws ProblemError 404 (`not_found`, detail `route.notFound`) naming each bad parameter.
 */
function parseParams(route: AnyRouteSpec, req: Request): unknown {
  const { error, value } = route.params!.validate(req.params, { abortEarly: false });
  if (error) throw notFound(route.notFound ?? 'Not found.', { errors: joiErrors(error) });
  return value;
}

/**
 * A part of the input (body or query) parsed by its schema now, or (`by-use-case`) on the first
 * call of its reader, memoised; without a schema, the raw value.
 */
function partOf(
  schema: Joi.Schema | undefined,
  when: 'before-handler' | 'by-use-case' | undefined,
  raw: unknown,
): { value: unknown; read: () => unknown } {
  if (!schema) return { value: raw, read: () => raw };
  if (when !== 'by-use-case') {
    const value = validate(schema, raw);
    return { value, read: () => value };
  }
  let parsed: { value: unknown } | undefined;
  return { value: undefined, read: () => (parsed ??= { value: validate(schema, raw) }).value };
}

/** Express handler running one route: parse params, query and body with its schemas, call, send. */
function runRoute<C>(route: AnyRouteSpec<C>, ctx: C): RequestHandler {
  return async (req, res) => {
    const params = route.params ? parseParams(route, req) : req.params;
    const query = partOf(route.query, route.parseQuery, req.query);
    const body = partOf(route.body, route.parseBody, req.body);
    const input = {
      params,
      query: query.value,
      readQuery: query.read,
      body: body.value,
      readBody: body.read,
    };
    const reply = await route.handler(input, ctx, req, res);
    if (reply && !res.headersSent) sendReply(res, reply);
  };
}

/** One checker per document, however many routers serve it (each compiles the document once). */
const checkers = new WeakMap<OpenApiDocument, ContractChecker>();
function checkerOf(document: OpenApiDocument): ContractChecker {
  let checker = checkers.get(document);
  if (!checker) checkers.set(document, (checker = new ContractChecker(document)));
  return checker;
}

/**
 * An Express router answering `routes` in order, their handlers getting `ctx`. With `FIELDHOUSE_CONTRACT_CHECK=1` (tests),
 * every answer is also checked against `document` and violations are recorded for the test
 * kit to fail the test (conformance.ts).
 */
export function contractRouter<C>(routes: AnyRouteSpec<C>[], ctx: C, document?: OpenApiDocument): Router {
  const router = Router();
  const checker = document && contractCheckEnabled() ? checkerOf(document) : undefined;
  for (const route of routes) {
    const path = expressPath(route.path);
    const handlers = [...(route.middleware?.(ctx) ?? []), runRoute(route, ctx)];
    if (checker) handlers.unshift(checker.middleware(route.method, route.path));
    router[route.method](path, ...handlers);
  }
  return router;
}
