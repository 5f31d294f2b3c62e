import Joi from 'joi';
import { pathUuidSchema, pathIdParam } from '@fieldhouse/http';
import { EXPORT_HEADERS } from '../domain/export-columns.ts';
import { EXPORT_FORMATS, type ExportInput } from '../domain/exports.ts';
import { dateTime } from './common-schemas.ts';

/** `{project_id}` of `POST /projects/{project_id}/submissions/export`. */
export const exportProjectParams = Joi.object<{ project_id: number }>({ project_id: pathIdParam() });

/** `{job_id}` of the export paths: a UUID (the use case answers 404 for anything else, 401 first). */
export const exportParams = Joi.object<{ job_id: string }>({ job_id: pathUuidSchema().failover('-') });

/** Export options (docs/collection.md, "Exports"). */
const exportOptionsKeys = {
  header: Joi.string()
    .valid(...EXPORT_HEADERS)
    .description('Header row of field names (default) or of field labels'),
  choice_columns: Joi.boolean().description(
    'After each select_multiple column, one `<name>/<choice>` column per choice: 1 chosen, 0 not, empty unanswered (default false)',
  ),
  formula_escaping: Joi.boolean().description(
    "CSV only (default true): a text cell (header included) starting with = + - @ tab, carriage return or their full-width forms gets a leading ' so spreadsheets show it as text, not run it as a formula (OWASP CSV injection); plain numbers such as -5 are never changed. false writes every value exactly as stored. xlsx text cells are always inline strings and GeoJSON is JSON: neither is altered.",
  ),
  lang: Joi.string()
    .pattern(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language code')
    .max(35)
    .description(
      "Language of the labels (`header: labels`): a code of the form's `languages`; a field without a text in it, or no `lang`, gives the default language's",
    ),
};
const exportOptionsSchema = Joi.object(exportOptionsKeys).id('ExportOptions');

/**
 * Body of `POST /projects/{project_id}/submissions/export` (spec 2.1 "Export request"), read
 * without conversions (`"true"` is not a boolean here).
 */
export const exportBody = Joi.object<ExportInput>({
  format: Joi.string()
    .valid(...EXPORT_FORMATS)
    .required()
    .description(
      '`csv`, `xlsx`, `geojson`, or `zip`: all data and media (the CSV, its photo cells naming the files of its `media/` folder)',
    ),
  filters: Joi.object()
    .unknown(true)
    .default({})
    .description('The list filters, checked by the use case (errors keyed filters.<name>)'),
  options: Joi.object(exportOptionsKeys).default({}),
}).prefs({ convert: false });

/** The 202 answer of an export request (spec 2.1 export response). */
export const exportQueuedSchema = Joi.object({
  status: Joi.string().valid('success').required(),
  data: Joi.object({
    job_id: Joi.string().guid().required(),
    message: Joi.string().required(),
  }).required(),
});

/** An export job: its state, progress (0 to 1), expiry and, once downloadable, its URL. */
export const exportJobSchema = Joi.object({
  id: Joi.string().guid().required(),
  project_id: Joi.number().integer().required(),
  format: Joi.string()
    .valid(...EXPORT_FORMATS)
    .required(),
  filters: Joi.object().unknown(true).required(),
  options: exportOptionsSchema.required(),
  status: Joi.string().valid('queued', 'running', 'completed', 'failed').required(),
  rows_written: Joi.number().integer().required(),
  total_rows: Joi.number().integer().allow(null).required(),
  progress: Joi.number().min(0).max(1).required(),
  error: Joi.string().allow(null).required(),
  requested_by: Joi.number().integer().required(),
  created_at: dateTime().required(),
  started_at: dateTime().allow(null).required(),
  finished_at: dateTime().allow(null).required(),
  expires_at: dateTime().allow(null).required(),
  expired: Joi.boolean().required(),
  download_url: Joi.string().allow(null).required(),
}).id('ExportJob');
