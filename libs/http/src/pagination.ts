import Joi from 'joi';

/** Page request of the list endpoints (spec 4.1 and 8: `per_page` from 1 to 100, default 15). */
export interface PageRequest {
  page: number;
  per_page: number;
}

export const pageQuerySchema = {
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  per_page: Joi.number().integer().min(1).max(100).default(15),
};

/** The pagination envelope of spec 2.1: `{data, pagination: {current_page, last_page, per_page, total}}`. */
export interface Paginated<T> {
  data: T[];
  pagination: { current_page: number; last_page: number; per_page: number; total: number };
}

/** Builds the envelope; `last_page` is at least 1, as Laravel's paginator says for an empty list. */
export function paginated<T>(data: T[], page: PageRequest, total: number): Paginated<T> {
  return {
    data,
    pagination: {
      current_page: page.page,
      last_page: Math.max(1, Math.ceil(total / page.per_page)),
      per_page: page.per_page,
      total,
    },
  };
}

/** The `pagination` object of spec 2.1 as a named response schema (`components.schemas.Pagination`). */
const paginationSchema = Joi.object({
  current_page: Joi.number().integer().min(1).required(),
  last_page: Joi.number().integer().min(1).required(),
  per_page: Joi.number().integer().min(1).max(100).required(),
  total: Joi.number().integer().min(0).required(),
}).id('Pagination');

/** The response schema of a page of `item`s: `{data: [item], pagination}` (spec 2.1). */
export const pageOf = (item: Joi.Schema) =>
  Joi.object({ data: Joi.array().items(item).required(), pagination: paginationSchema.required() });
