import Joi from 'joi';
import { notFound } from '@fieldhouse/problem';

/** Largest value of a PostgreSQL `integer` (`serial`, `increments`) column: 2^31 - 1. */
const PG_INTEGER_MAX = 2_147_483_647;

/**
 * The range of an id by the column that stores it: `int` for PostgreSQL `integer`/`serial`
 * (1..2^31-1), `bigint` for `bigint`/`bigserial` read as a JS number (1..2^53-1).
 */
export type IdKind = 'int' | 'bigint';
const ID_MAX: Record<IdKind, number> = { int: PG_INTEGER_MAX, bigint: Number.MAX_SAFE_INTEGER };

/**
 * The joi schema of an id in a body or query (`user_id`, `form_version_id`): an integer from
 * 1 to the column's maximum, so a larger one is a 422 naming the field instead of an overflow
 * in the database. Every id field of every component uses it.
 */
export const idSchema = (kind: IdKind = 'int') => Joi.number().integer().min(1).max(ID_MAX[kind]);

/**
 * Parses an id written in decimal (`"42"`), or undefined when it is not one within the kind's
 * range (leading zeros, signs, exponents and anything past the maximum are refused).
 */
export function parseId(raw: unknown, kind: IdKind = 'int'): number | undefined {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,15}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= ID_MAX[kind] ? n : undefined;
}

/**
 * The id a {@link pathIdParam} parsed (0 when the path held none).
 * @throws ProblemError 404 (nothing can have that id) naming the parameter by `name`, the name
 * the answers use (`projectId`, `token_id`...: clients read `errors` by it).
 */
export function pathId(value: number, name: string, kind: IdKind = 'int'): number {
  if (value > 0) return value;
  throw notFound(`Nothing has this ${name}: ids are integers from 1 to ${ID_MAX[kind]}.`, {
    errors: { [name]: [`The ${name} must be an integer from 1 to ${ID_MAX[kind]}.`] },
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID (any version) that a PostgreSQL `uuid` column accepts; check path
 * ids with it before a query (36 hex digits and dashes in the wrong places are not one).
 */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * The joi schema of an integer id in a path (`/forms/{form_id}`): decimal digits without sign,
 * exponent or leading zero, from 1 to the kind's maximum, converted to a number (as
 * {@link parseId}). Routes declare it in `params`; a bad one is a 404.
 */
export const pathIdSchema = (kind: IdKind = 'int') =>
  Joi.string()
    .pattern(/^[1-9]\d{0,15}$/, 'decimal id')
    .custom(
      (raw: string, helpers) => parseId(raw, kind) ?? helpers.error('number.max', { limit: ID_MAX[kind] }),
    )
    .messages({ 'number.max': `{{#label}} must be an integer from 1 to ${ID_MAX[kind]}` })
    .description(`Integer id from 1 to ${ID_MAX[kind]}`);

/**
 * {@link pathIdSchema} for a route whose use case decides when a bad id is answered: parsed to
 * the id, or to 0 when it is not one, so that {@link pathId} answers it at the right moment
 * (after the caller's sign-in check, say) with the parameter's public name.
 */
export const pathIdParam = (kind: IdKind = 'int') => pathIdSchema(kind).failover(0);

/** The joi schema of a UUID in a path (`/events/{event_id}`); a bad one is a 404. */
export const pathUuidSchema = () =>
  Joi.string()
    .pattern(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'uuid')
    .meta({ format: 'uuid' });
