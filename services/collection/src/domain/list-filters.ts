import Joi from 'joi';
import { idSchema } from '@fieldhouse/http';
import { validate } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import { STATUSES } from './transitions.ts';
import { isCalendarDate } from './value-validators.ts';
import type { ListFilters } from '../data/submission-list.ts';

/** The filters of `GET /projects/{id}/submissions` (spec 4.1), also the `filters` of an export. */
export const listFiltersSchema = Joi.object({
  status: Joi.string().valid(...STATUSES),
  date_from: Joi.string().custom((v: string, h) => (isCalendarDate(v) ? v : h.error('any.invalid'))),
  date_to: Joi.string().custom((v: string, h) => (isCalendarDate(v) ? v : h.error('any.invalid'))),
  collector_id: idSchema(),
  search: Joi.string().trim().max(200).allow(''),
}).messages({ 'any.invalid': '{{#label}} must be a date as YYYY-MM-DD' });

/**
 * Validates list filters (query strings converted, or an export's JSON object).
 * @throws ProblemError 422 naming each bad filter; `date_to` before `date_from`.
 */
export function parseListFilters(raw: unknown, opts: { convert: boolean }): ListFilters {
  const filters = validate(listFiltersSchema, raw, { convert: opts.convert }) as ListFilters;
  if (filters.date_from && filters.date_to && filters.date_from > filters.date_to)
    throw problems.validationFailed({ errors: { date_to: ['date_to must not be before date_from'] } });
  if (filters.search === '') delete filters.search;
  return filters;
}
