import { randomUUID } from 'node:crypto';
import type { Envelope, ExchangeName } from '@fieldhouse/contracts';

/**
 * One typed list of the changes a service announces (issue 33): each change is declared once,
 * with its payload's shape, and the shape yields everything else:
 * - the TypeScript type of the payload ({@link Infer}), so appending a wrong payload to the
 *   outbox is a compile error ({@link Changes.append}, {@link Changes.appendWebhook});
 * - its JSON Schema (for the AsyncAPI documents: {@link Changes.webhookDocs});
 * - where a trigger builds it, the SQL expression (`jsonb_build_object(...)`) of the payload
 *   from the trigger's rows ({@link Changes.sql}), so no payload SQL is written by hand.
 *
 * A shape is built with {@link t}: leaves take the SQL expression of their value (`sql`, a column
 * of the trigger's rows, e.g. `n.id`) and any JSON Schema keywords (`description`...).
 */

/** JSON Schema as plain data (the same type as libs/http's). */
export type JsonSchema = { [keyword: string]: unknown };

/** A payload shape (or a part of one): its JSON Schema and, when SQL can build it, its SQL expression. */
export interface Shape<T> {
  readonly schema: JsonSchema;
  /** The SQL expression of the value (jsonb-compatible), or undefined when SQL does not build it. */
  readonly sql: string | undefined;
  /** Phantom: the TypeScript type of the value; never set. */
  readonly __type?: T;
}

/** A property of a {@link t.object} that is present only when `when` (SQL) holds. */
export interface OptionalShape<T> extends Shape<T> {
  readonly optionalWhen: string | undefined;
}

/** The TypeScript type a shape describes. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

/** Options of a leaf: the SQL expression of its value, and JSON Schema keywords. */
export type LeafOptions = { sql?: string } & JsonSchema;

type Props = Record<string, Shape<unknown>>;
type OptionalKeys<P extends Props> = {
  [K in keyof P]: P[K] extends OptionalShape<unknown> ? K : never;
}[keyof P];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The object type of properties `P`: optional ones with `?`. */
export type ObjectOf<P extends Props> = Simplify<
  { [K in Exclude<keyof P, OptionalKeys<P>>]: Infer<P[K]> } & { [K in OptionalKeys<P>]?: Infer<P[K]> }
>;

const leaf =
  <T>(base: JsonSchema) =>
  (opts: LeafOptions = {}): Shape<T> => {
    const { sql, ...keywords } = opts;
    return { schema: { ...base, ...keywords }, sql };
  };

/** `'text'` as an SQL literal. */
export const sqlLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * A `timestamptz` as JavaScript's `toISOString` writes it (UTC, milliseconds, `Z`); NULL stays
 * NULL. The same text as `webhook_iso` (libs/webhooks triggers.ts).
 */
export const sqlIsoTime = (expr: string): string =>
  `to_char((${expr})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const withNull = (type: unknown): unknown =>
  Array.isArray(type) ? [...type, 'null'] : type === undefined ? undefined : [type, 'null'];

/** The builders of payload shapes. */
export const t = {
  string: leaf<string>({ type: 'string' }),
  integer: leaf<number>({ type: 'integer' }),
  number: leaf<number>({ type: 'number' }),
  boolean: leaf<boolean>({ type: 'boolean' }),
  uuid: leaf<string>({ type: 'string', format: 'uuid' }),
  /** An ISO 8601 UTC time; its `sql` is a `timestamptz` expression, written as {@link sqlIsoTime} does. */
  time: (opts: LeafOptions = {}): Shape<string> => {
    const { sql, ...keywords } = opts;
    return {
      schema: { type: 'string', format: 'date-time', ...keywords },
      sql: sql === undefined ? undefined : sqlIsoTime(sql),
    };
  },
  /** Exactly `value` (`const`). */
  literal: <V extends string | number | boolean>(value: V, opts: LeafOptions = {}): Shape<V> =>
    leaf<V>({ type: typeof value === 'number' ? 'number' : typeof value, const: value })(opts),
  /** One of `values` (`enum`). */
  oneOf: <V extends string>(values: readonly V[], opts: LeafOptions = {}): Shape<V> =>
    leaf<V>({ type: 'string', enum: [...values] })(opts),
  /** Any JSON value of type `T`, described by `schema` as given. */
  json: <T>(schema: JsonSchema, sql?: string): Shape<T> => ({ schema, sql }),
  /**
   * `shape` or null: the schema's `type` gains `'null'`; `nullWhen` (SQL condition), when given,
   * makes the SQL value NULL when it holds (`CASE WHEN ... THEN NULL ELSE ... END`).
   */
  nullable: <T>(shape: Shape<T>, opts: { nullWhen?: string } & JsonSchema = {}): Shape<T | null> => {
    const { nullWhen, ...keywords } = opts;
    return {
      schema: { ...shape.schema, type: withNull(shape.schema.type), ...keywords },
      sql:
        shape.sql === undefined || nullWhen === undefined
          ? shape.sql
          : `CASE WHEN ${nullWhen} THEN NULL ELSE ${shape.sql} END`,
    };
  },
  /** `shape` with other JSON Schema keywords (a description of this use of it). */
  describe: <T>(shape: Shape<T>, keywords: JsonSchema): Shape<T> => ({
    schema: { ...shape.schema, ...keywords },
    sql: shape.sql,
  }),
  /** A property present only when `when` (SQL condition) holds: not `required`, `?` in TypeScript. */
  optional: <T>(shape: Shape<T>, when?: string): OptionalShape<T> => ({ ...shape, optionalWhen: when }),
  /**
   * An object of `props`, every one required but the {@link t.optional} ones; its SQL is
   * `jsonb_build_object('key', value, ...)` (`|| CASE WHEN when THEN jsonb_build_object(...)
   * ELSE '{}' END` for each optional one), undefined when a property has no SQL.
   */
  object: <P extends Props>(props: P, keywords: JsonSchema = {}): Shape<ObjectOf<P>> => {
    const entries = Object.entries(props);
    const optional = (s: Shape<unknown>): s is OptionalShape<unknown> => 'optionalWhen' in s;
    const required = entries.filter(([, s]) => !optional(s));
    const sqlOf = (pairs: [string, Shape<unknown>][]) =>
      `jsonb_build_object(${pairs.map(([k, s]) => `${sqlLiteral(k)}, ${s.sql}`).join(', ')})`;
    const sql = entries.some(([, s]) => s.sql === undefined)
      ? undefined
      : [
          sqlOf(required),
          ...entries
            .filter(([, s]) => optional(s))
            .map(
              ([k, s]) =>
                `CASE WHEN ${(s as OptionalShape<unknown>).optionalWhen ?? 'true'} THEN ${sqlOf([[k, s]])} ` +
                `ELSE '{}'::jsonb END`,
            ),
        ].join(' || ');
    return {
      schema: {
        type: 'object',
        ...keywords,
        required: required.map(([k]) => k),
        properties: Object.fromEntries(entries.map(([k, s]) => [k, s.schema])),
      },
      sql,
    };
  },
};

/** How a change leaves the service: a message on its exchange, or a webhook (`webhook.<kind>`, fanned out by the webhook worker). */
export type ChangeVia = 'message' | 'webhook';

/** One declared change: when it is announced, and its payload. */
export interface ChangeDeclaration<T, V extends ChangeVia = ChangeVia> {
  readonly via: V;
  /** One line: when it is announced. */
  readonly summary: string;
  /** More: which paths announce it, what the payload holds (CommonMark). */
  readonly description: string;
  /** The payload (a webhook's body `data`). */
  readonly data: Shape<T>;
}

type Declarations = Record<string, ChangeDeclaration<unknown>>;
type WithoutVia<T> = Omit<ChangeDeclaration<T>, 'via'>;

/** A message other services (or the service's own workers) consume: routing key the kind. */
export const message = <T>(d: WithoutVia<T>): ChangeDeclaration<T, 'message'> => ({ via: 'message', ...d });

/** A webhook kind: routing key `webhook.<kind>`, `data` `{scope, data}` for the webhook worker. */
export const webhook = <T>(d: WithoutVia<T>): ChangeDeclaration<T, 'webhook'> => ({ via: 'webhook', ...d });

/** The payload type of change `K` of `C`. */
export type PayloadOf<C extends Declarations, K extends keyof C> = Infer<C[K]['data']>;

/** The kinds of `C` announced as webhooks. */
export type WebhookKindOf<C extends Declarations> = {
  [K in keyof C]: C[K]['via'] extends 'webhook' ? K : never;
}[keyof C] &
  string;

/** Where {@link Changes.append} writes: the outbox of the caller's unit of work. */
export interface OutboxLike {
  add(exchange: string, message: Envelope): Promise<void>;
}

/** What a webhook change needs besides its payload: the scope its subscriptions match, and a message id if not a new one. */
export interface WebhookOptions<S> {
  scope: S;
  /** The message id (the receivers' `webhook-id`); a new UUID when absent. */
  id?: string;
}

/** The kinds of `C` sent as messages. */
export type MessageKindOf<C extends Declarations> = Exclude<keyof C & string, WebhookKindOf<C>>;

/** What {@link defineChanges} returns: the list, and the typed ways to use it. */
export interface Changes<C extends Declarations, S> {
  /** The exchange the service publishes on (the envelopes' `source`). */
  readonly source: ExchangeName;
  readonly declarations: C;
  /** The webhook kinds, in the list's order. */
  readonly webhookKinds: readonly WebhookKindOf<C>[];
  /** The envelope of message `kind` with `data` (typed by the list); `id` a new UUID unless given. */
  envelope<K extends MessageKindOf<C>>(kind: K, data: PayloadOf<C, K>, options?: { id?: string }): Envelope;
  /** Writes message `kind` to `outbox` (the caller's transaction). */
  append<K extends MessageKindOf<C>>(
    outbox: OutboxLike,
    kind: K,
    data: PayloadOf<C, K>,
    options?: { id?: string },
  ): Promise<void>;
  /**
   * The envelope of webhook `kind`: routing key `webhook.<kind>`, `data` `{scope, data}` (what
   * the webhook worker fans out to the scope's subscriptions).
   */
  webhookEnvelope<K extends WebhookKindOf<C>>(
    kind: K,
    data: PayloadOf<C, K>,
    options: WebhookOptions<S>,
  ): Envelope;
  /** Writes webhook `kind` to `outbox` (the caller's transaction). */
  appendWebhook<K extends WebhookKindOf<C>>(
    outbox: OutboxLike,
    kind: K,
    data: PayloadOf<C, K>,
    options: WebhookOptions<S>,
  ): Promise<void>;
  /** The JSON Schema of the payload of `kind`. */
  schema(kind: keyof C & string): JsonSchema;
  /** The SQL expression building the payload of `kind` from a trigger's rows. @throws Error when a part has no SQL. */
  sql(kind: keyof C & string): string;
  /** Each webhook kind's summary, description and `data` schema (for libs/webhooks `webhookAsyncApiDocument`). */
  webhookDocs(): Record<WebhookKindOf<C>, { summary: string; description: string; data: JsonSchema }>;
  /** Each message kind's summary, description and payload schema. */
  messageDocs(): Record<MessageKindOf<C>, { summary: string; description: string; data: JsonSchema }>;
}

/** What a service declares: its exchange, the scope of its webhooks, its changes. */
export interface ChangesDefinition<C extends Declarations, S> {
  /** The exchange the service publishes on. */
  source: ExchangeName;
  /** The scope webhook subscriptions match (`{poll_id}`...); omitted when the service sends no webhook. */
  webhookScope?: Shape<S>;
  changes: C;
}

/**
 * Declares the changes a service announces (see the top of this file). The kinds are the keys
 * of `changes`, in order.
 */
export function defineChanges<C extends Declarations, S = never>(
  definition: ChangesDefinition<C, S>,
): Changes<C, S> {
  const { source, changes: declarations } = definition;
  const kinds = Object.keys(declarations) as (keyof C & string)[];
  const docsOf = (via: ChangeVia) =>
    Object.fromEntries(
      kinds
        .filter((k) => declarations[k]!.via === via)
        .map((k) => {
          const d = declarations[k]!;
          return [k, { summary: d.summary, description: d.description, data: d.data.schema }];
        }),
    );
  const envelope = (type: string, data: unknown, id?: string): Envelope => ({
    id: id ?? randomUUID(),
    type,
    source,
    time: new Date().toISOString(),
    data,
  });
  const webhookEnvelope = (kind: string, data: unknown, options: WebhookOptions<S>) =>
    envelope(`webhook.${kind}`, { scope: options.scope, data }, options.id);
  return {
    source,
    declarations,
    webhookKinds: kinds.filter((k) => declarations[k]!.via === 'webhook') as WebhookKindOf<C>[],
    envelope: (kind, data, options) => envelope(kind, data, options?.id),
    append: (outbox, kind, data, options) => outbox.add(source, envelope(kind, data, options?.id)),
    webhookEnvelope,
    appendWebhook: (outbox, kind, data, options) => outbox.add(source, webhookEnvelope(kind, data, options)),
    schema: (kind) => declarations[kind]!.data.schema,
    sql: (kind) => {
      const sql = declarations[kind]!.data.sql;
      if (sql === undefined) throw new Error(`change ${kind}: a part of its payload has no SQL`);
      return sql;
    },
    webhookDocs: () => docsOf('webhook') as ReturnType<Changes<C, S>['webhookDocs']>,
    messageDocs: () => docsOf('message') as ReturnType<Changes<C, S>['messageDocs']>,
  };
}
