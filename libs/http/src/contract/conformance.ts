import type { RequestHandler, Response } from 'express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from './document.ts';

const VIOLATIONS = Symbol.for('fieldhouse.contract.violations');
type Registry = { [VIOLATIONS]?: string[] };

/**
 * Whether answers are checked against the documents (`FIELDHOUSE_CONTRACT_CHECK=1`, which the
 * test kit sets for every test run; never in production: the check parses every answer).
 */
export const contractCheckEnabled = () => process.env.FIELDHOUSE_CONTRACT_CHECK === '1';

/** Records one answer that broke its document (read by the test kit after each test). */
function recordContractViolation(violation: string): void {
  ((globalThis as Registry)[VIOLATIONS] ??= []).push(violation);
}

/** Returns and forgets the violations recorded so far in this process. */
export function takeContractViolations(): string[] {
  const registry = globalThis as Registry;
  const taken = registry[VIOLATIONS] ?? [];
  registry[VIOLATIONS] = [];
  return taken;
}

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
const mediaType = (header: unknown) =>
  String(header ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}

/**
 * Checks answers against one OpenAPI 3.1 document: the status is declared for the operation,
 * the content type is one the answer declares, and a JSON body (`application/json` or
 * `application/problem+json`) passes the declared schema (ajv, draft 2020-12, references into
 * the document resolved; formats are not checked).
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly document: OpenApiDocument;
  private readonly id: string;

  constructor(document: OpenApiDocument) {
    this.document = document;
    this.id = `urn:fieldhouse:document:${document.info.title.replace(/[^A-Za-z0-9]+/g, '-')}`;
    this.ajv.addSchema(document as object, this.id);
  }

  /**
   * What is wrong with one answer of `method path` (the OpenAPI path template), or undefined.
   * `body` is the raw text sent (undefined for a stream or no body).
   */
  check(method: string, path: string, status: number, contentType: unknown, body: string | undefined) {
    const op = this.document.paths[path]?.[method.toLowerCase()] as
      { responses?: Record<string, ResponseObject> } | undefined;
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    if (!op) return `${where}: the operation is not in the document`;
    const declared = op.responses?.[String(status)];
    if (!declared) return `${where}: status ${status} is not declared`;
    const type = mediaType(contentType);
    const content = declared.content ?? {};
    if (!type || body === undefined || body === '') return undefined;
    if (!Object.keys(content).length) return `${where}: a ${type} body where none is declared`;
    if (!(type in content))
      return `${where}: content type ${type} is not one of ${Object.keys(content).join(', ')}`;
    if (!content[type]!.schema || !type.endsWith('json')) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${where}: the ${type} body is not JSON`;
    }
    const pointer = [
      'paths',
      path,
      method.toLowerCase(),
      'responses',
      String(status),
      'content',
      type,
      'schema',
    ]
      .map(escapePointer)
      .join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.id}#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (validate(parsed)) return undefined;
    return `${where}: the body does not match the document: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
  }

  /**
   * Express middleware for one route: records (see {@link recordContractViolation}) any answer
   * of the route that {@link check} finds wrong, once the answer is sent.
   */
  middleware(method: string, path: string): RequestHandler {
    return (req, res, next) => {
      const sent = captureBody(res);
      res.once('finish', () => {
        if (req.method === 'HEAD') return;
        const violation = this.check(method, path, res.statusCode, res.getHeader('content-type'), sent());
        if (violation) recordContractViolation(violation);
      });
      next();
    };
  }
}

/** Wraps `res.send` to keep the first body it sends (as text); streamed bodies stay undefined. */
function captureBody(res: Response): () => string | undefined {
  let body: string | undefined;
  const send = res.send.bind(res);
  res.send = (chunk?: unknown) => {
    if (body === undefined && chunk !== undefined && chunk !== null)
      body = Buffer.isBuffer(chunk)
        ? chunk.toString('utf8')
        : typeof chunk === 'string'
          ? chunk
          : JSON.stringify(chunk);
    return send(chunk);
  };
  return () => body;
}
