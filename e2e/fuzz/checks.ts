import { Ajv } from 'ajv';
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
 * The documents' own promises about successful answers: `conformance(op).check(status, body)`
 * validates a 2xx JSON body against the response schema the operation declares for that
 * status (references into the document resolved by ajv). Returns what differs, or undefined
 * when it matches or nothing is declared.
 */
export class ResponseConformance {
  private readonly ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });
  private readonly loaded = new Set<string>();

  private readonly docs: Record<string, unknown>;

  constructor(docs: Record<string, unknown>) {
    this.docs = docs;
  }

  check(component: string, method: string, path: string, status: number, body: unknown): string | undefined {
    if (!this.loaded.has(component)) {
      this.ajv.addSchema(this.docs[component] as object, component);
      this.loaded.add(component);
    }
    const doc = this.docs[component] as {
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
      >;
    };
    const schema =
      doc.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    const pointer = [
      'paths',
      path,
      method,
      'responses',
      String(status),
      'content',
      'application/json',
      'schema',
    ]
      .map((p) => encodeURIComponent(p.replaceAll('~', '~0').replaceAll('/', '~1')))
      .join('/');
    const validate = this.ajv.getSchema(`${component}#/${pointer}`);
    if (!validate || validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors);
  }
}
