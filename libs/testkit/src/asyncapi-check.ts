import type { AsyncAPIDocumentInterface, Diagnostic, Parser } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import type { Knex } from '@fieldhouse/db';

// DiagnosticSeverity of @stoplight/types (the parser's diagnostics): 0 error, 1 warning.
const ERROR = 0;
const WARNING = 1;

let parser: Parser | undefined;

const describeDiagnostic = (d: Diagnostic) => `${d.code} at ${d.path.join('.') || '(root)'}: ${d.message}`;

/**
 * Parses an AsyncAPI document with the official parser (`@asyncapi/parser`: the specification's
 * JSON Schema and its rule set) and expects neither errors nor warnings (information, such as
 * "a newer AsyncAPI version exists", is allowed). Resolves with the parsed document.
 */
export async function expectValidAsyncApi(document: object): Promise<AsyncAPIDocumentInterface> {
  // Loaded on first use: the parser (Spectral underneath) is heavy, and every test imports the kit.
  parser ??= new (await import('@asyncapi/parser')).Parser();
  // The parser dereferences its input in place: give it a copy.
  const { document: parsed, diagnostics } = await parser.parse(
    structuredClone(document) as Parameters<Parser['parse']>[0],
  );
  const problems = diagnostics.filter((d) => d.severity === ERROR || d.severity === WARNING);
  expect(problems.map(describeDiagnostic), 'AsyncAPI errors and warnings').to.deep.equal([]);
  expect(parsed, 'the parsed AsyncAPI document').to.not.equal(undefined);
  return parsed!;
}

type Schema = { [keyword: string]: unknown };
type Node = { [key: string]: unknown };

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** The value at a local `$ref` (`#/a/b`) of the document. */
function resolve(document: Node, ref: string): unknown {
  const parts = ref.replace(/^#\/?/, '').split('/').filter(Boolean);
  return parts.reduce<unknown>(
    (at, p) => (isObject(at) ? at[p.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined),
    document,
  );
}

const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];

/**
 * Closes a schema in place: every object schema that lists `properties` and says nothing of
 * `additionalProperties` gets `additionalProperties: false`, so a field the document does not
 * describe fails the check (the document itself stays open to new fields, as receivers should).
 */
function close(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(close);
  if (!isObject(schema)) return;
  if (isObject(schema.properties) && !('additionalProperties' in schema)) schema.additionalProperties = false;
  for (const k of SCHEMA_LISTS) if (Array.isArray(schema[k])) (schema[k] as unknown[]).forEach(close);
  for (const k of SCHEMA_MAPS) if (isObject(schema[k])) Object.values(schema[k]).forEach(close);
  for (const k of SCHEMA_VALUES) close(schema[k]);
}

/** The compiled checks of one message: its payload and, if it declares them, its headers. */
interface MessageCheck {
  payload: ValidateFunction;
  headers?: ValidateFunction;
}

/** The compiled checks of one document, by kind (each kind: one per message of its channel). */
interface DocumentChecks {
  ajv: Ajv;
  id: string;
  copy: Node;
  byKind: Map<string, MessageCheck[]>;
}

const checks = new WeakMap<object, DocumentChecks>();
let documents = 0;

/** The messages of each channel of the document, `$ref`s resolved, with their JSON pointers. */
function messagesOf(document: Node): Array<{ address: unknown; pointer: string; message: Node }> {
  const channels = isObject(document.channels) ? document.channels : {};
  return Object.entries(channels).flatMap(([channelId, channel]) =>
    Object.entries(isObject(channel) && isObject(channel.messages) ? channel.messages : {}).flatMap(
      ([messageId, m]) => {
        const ref = isObject(m) && typeof m.$ref === 'string' ? m.$ref : undefined;
        const message = ref ? resolve(document, ref) : m;
        const pointer = ref ?? `#/channels/${escapePointer(channelId)}/messages/${escapePointer(messageId)}`;
        return isObject(message) ? [{ address: (channel as Node).address, pointer, message }] : [];
      },
    ),
  );
}

/** The checks of a document: a copy of it, its message payloads closed, in an ajv of its own. */
function checksOf(document: object): DocumentChecks {
  let c = checks.get(document);
  if (!c) {
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    // ajv-formats is CommonJS: its `default` is the plugin (module.exports is too).
    addFormats.default(ajv as unknown as Parameters<typeof addFormats.default>[0]);
    const copy = structuredClone(document) as Node;
    for (const { message } of messagesOf(copy)) close(message.payload);
    const id = `urn:fieldhouse:asyncapi:${++documents}`;
    ajv.addSchema(copy as Schema, id);
    c = { ajv, id, copy, byKind: new Map() };
    checks.set(document, c);
  }
  return c;
}

/** The checks of the messages of the channel whose address is `kind`. */
function messageChecksOf(c: DocumentChecks, kind: string): MessageCheck[] {
  const known = c.byKind.get(kind);
  if (known) return known;
  const found = messagesOf(c.copy).filter((m) => m.address === kind && 'payload' in m.message);
  if (!found.length)
    expect.fail(`the AsyncAPI document has no message payload on a channel of address ${kind}`);
  const compile = (pointer: string) => c.ajv.compile({ $ref: `${c.id}${pointer}` });
  const compiled = found.map(({ pointer, message }) => ({
    payload: compile(`${pointer}/payload`),
    ...('headers' in message ? { headers: compile(`${pointer}/headers`) } : {}),
  }));
  c.byKind.set(kind, compiled);
  return compiled;
}

/**
 * Parses a service's webhook document ({@link expectValidAsyncApi}) and expects exactly one
 * channel per kind of the service plus `ping`, each with one `send` operation.
 */
export async function expectWebhookChannels(document: object, kinds: readonly string[]): Promise<void> {
  const channels = (await expectValidAsyncApi(document)).channels().all();
  expect(channels.map((c) => c.address())).to.have.members([...kinds, 'ping']);
  for (const c of channels)
    expect(
      c
        .operations()
        .all()
        .map((o) => o.action()),
      c.address()!,
    ).to.deep.equal(['send']);
}

/**
 * Expects a received webhook body (parsed JSON) to match the payload schema of the message of
 * the channel whose address is `kind` in an AsyncAPI document (ajv with formats, draft 07 as
 * AsyncAPI 3.0 schemas are), stricter than the document: every described object is closed, so
 * a field it does not describe fails too. With `headers` (the request's, lower-case names), the
 * message's headers schema must pass as well (other headers allowed). Documents are compiled
 * once (kept per object).
 */
export function expectPayloadMatchesAsyncApi(
  document: object,
  kind: string,
  payload: unknown,
  headers?: object,
): void {
  const c = checksOf(document);
  const messages = messageChecksOf(c, kind);
  const passes = (m: MessageCheck) => m.payload(payload) && (!headers || !m.headers || m.headers(headers));
  if (messages.some(passes)) return;
  const why = messages
    .map((m) =>
      m.payload.errors
        ? c.ajv.errorsText(m.payload.errors, { dataVar: 'body' })
        : c.ajv.errorsText(m.headers?.errors, { dataVar: 'headers' }),
    )
    .join('; or ');
  expect.fail(
    `${kind}: the webhook does not match the AsyncAPI document: ${why}\n${JSON.stringify(payload)}`,
  );
}

/**
 * The webhook bodies a PostgreSQL service's delivery worker would send for the `webhook.<kind>`
 * messages now in its `outbox` table, oldest first: `{type, timestamp, data}`.
 */
export async function outboxWebhookBodies(db: Knex) {
  const rows = (await db('outbox')
    .whereRaw("message->>'type' LIKE 'webhook.%'")
    .orderBy('id')
    .select('message')) as Array<{ message: { type: string; time: string; data: { data: unknown } } }>;
  return rows.map(({ message: m }) => ({
    type: m.type.slice('webhook.'.length),
    timestamp: new Date(m.time).toISOString(),
    data: m.data.data,
  }));
}
