import Joi from 'joi';
import { pageQuerySchema } from '@fieldhouse/http';

/** `?page&per_page` of the list endpoints (spec 2.1 pagination: per_page 1 to 100, default 15). */
export const pageQuery = Joi.object<{ page: number; per_page: number }>(pageQuerySchema);

/** A timestamp as sent (ISO 8601, UTC). */
export const dateTime = () => Joi.date().iso();

/** The spec 2.1 envelope of one resource: `{data: <item>}`. */
export const envelope = (item: Joi.Schema) => Joi.object({ data: item.required() });
