import { Joi } from '@fieldhouse/config';
import { pageOf } from '@fieldhouse/http';

/**
 * Schemas every polls resource shares: the `{poll_id}` path parameter, the `{data, message}`
 * envelope, the list envelope and string-keyed maps.
 */

/** `{poll_id}`: polls have string ids (UUIDs); an unknown one is a 404 from the use case. */
export const pollIdSchema = () => Joi.string().description('The poll id (a string).');

/** The path parameters of every route under `/api/polls/{poll_id}`. */
export const pollParams = Joi.object<{ poll_id: string }>({ poll_id: pollIdSchema().required() });

/**
 * An object whose keys are ids (any string) and whose values all match `value`, e.g. option id
 * to vote count. (A key pattern written as a RegExp: joi-to-json turns it into
 * `patternProperties`; document.ts drops the stray `properties` entry it adds beside.)
 */
export const mapOf = (value: Joi.Schema) => Joi.object().pattern(/^/, value);

/** The answer envelope of area B (spec 2.2): `{data, message}`. */
export const envelope = (data: Joi.Schema) =>
  Joi.object({ data: data.required(), message: Joi.string().required() });

/** The list envelope: `{data: [...], pagination, message}` (spec 2.1's pagination object). */
export const listEnvelope = (item: Joi.Schema) => pageOf(item).keys({ message: Joi.string().required() });

/** An ISO 8601 UTC time as the service writes it (`2025-01-31T14:05:00.000Z`). */
export const isoTime = () => Joi.string().description('ISO 8601 UTC time');
