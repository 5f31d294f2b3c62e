import { Ajv } from 'ajv';
import { ContractChecker, type OpenApiDocument } from '@fieldhouse/http';
import type { FuzzResponse } from './send.ts';

/** RFC 9457 as libs/problem promises it: `type`, `title`, `status` (equal to the HTTP status), `detail`. */
const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', minLength: 1 },
    title: { type: 'string', minLength: 1 },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const isProblem = ajv.compile(problemSchema);

/**
 * The fuzzer's property for one answer: never a 5xx, and every 4xx is a problem document
 * (`application/problem+json` whose body passes the schema above, with the same status).
 * (A HEAD answer has no body: only its content type is checked.) Returns what is wrong, or undefined.
 */
export function violation(res: FuzzResponse, method = 'GET'): string | undefined {
  if (res.status >= 500) return `answered ${res.status}: ${res.body.slice(0, 300)}`;
  if (res.status < 400) return undefined;
  if (method === 'HEAD')
    return res.contentType.startsWith('application/problem+json')
      ? undefined
      : `HEAD ${res.status} with content type "${res.contentType}"`;
  if (!res.contentType.startsWith('application/problem+json'))
    return `${res.status} with content type "${res.contentType}" instead of application/problem+json`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `${res.status} whose body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (!isProblem(body))
    return `${res.status} body is not a problem document: ${ajv.errorsText(isProblem.errors)}`;
  if ((body as { status: number }).status !== res.status)
    return `problem status ${(body as { status: number }).status} differs from HTTP status ${res.status}`;
  return undefined;
}

/**
 * The documents' promises about every answer: `check(component, method, path, status,
 * contentType, body)` says what is wrong with one answer of the operation `method path` of
 * the component's document — a status it does not declare, a content type it does not
 * declare, or a JSON body (success or problem) that fails the declared schema — or undefined.
 * One checker of libs/http (the one the in-process tests use) per document.
 */
export class DocumentConformance {
  private readonly checkers = new Map<string, ContractChecker>();
  private readonly docs: Record<string, unknown>;

  constructor(docs: Record<string, unknown>) {
    this.docs = docs;
  }

  check(
    component: string,
    method: string,
    path: string,
    status: number,
    contentType: string,
    body: string | undefined,
  ): string | undefined {
    let checker = this.checkers.get(component);
    if (!checker) {
      checker = new ContractChecker(this.docs[component] as OpenApiDocument);
      this.checkers.set(component, checker);
    }
    return checker.check(method, path, status, contentType, body);
  }
}
