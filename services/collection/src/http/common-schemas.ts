import Joi from 'joi';
import { pageQuerySchema, toJsonSchema } from '@fieldhouse/http';
import { validate } from '@fieldhouse/problem';
import type { BodyReader } from '../domain/context.ts';

/** `?page&per_page` of the list endpoints (spec 2.1 pagination: per_page 1 to 100, default 15). */
export const pageQuery = Joi.object<{ page: number; per_page: number }>(pageQuerySchema);

/** A timestamp as sent (ISO 8601, UTC). */
export const dateTime = () => Joi.date().iso();

/** The spec 2.1 envelope of one resource: `{data: <item>}`. */
export const envelope = (item: Joi.Schema) => Joi.object({ data: item.required() });

/** The spec 2.1 pagination envelope: `{data: [<item>], pagination: {current_page, last_page, per_page, total}}`. */
export const paged = (item: Joi.Schema) =>
  Joi.object({
    data: Joi.array().items(item).required(),
    pagination: Joi.object({
      current_page: Joi.number().integer().required(),
      last_page: Joi.number().integer().required(),
      per_page: Joi.number().integer().required(),
      total: Joi.number().integer().required(),
    })
      .id('Pagination')
      .required(),
  });

/** The `application/json` request content of a body the use case reads (see {@link bodyReader}). */
export const jsonRequest = (schema: Joi.Schema) => ({ 'application/json': toJsonSchema(schema, {}) });

/**
 * The use case's reader of a request body (domain/context.ts `BodyReader`): validates `raw`
 * with `schema` when called (unknown members dropped).
 */
export const bodyReader =
  <T>(schema: Joi.Schema<T>, raw: unknown): BodyReader<T> =>
  () =>
    validate(schema, raw);
