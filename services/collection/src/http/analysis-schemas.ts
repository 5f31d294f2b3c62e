import { pathIdParam } from '@fieldhouse/http';
import Joi from 'joi';
import { CHART_KINDS } from '../domain/charts.ts';
import type { AnalysisInput, ChartQuery } from '../domain/analyses.ts';
import { dateTime } from './common-schemas.ts';

/** `{analysis_id}` of the analysis paths. */
export const analysisParams = Joi.object<{ analysis_id: number }>({ analysis_id: pathIdParam() });

/** `{analysis_id}/charts/{index}.svg`: `index` is checked by the use case (404 unless a chart's). */
export const chartParams = Joi.object<{ analysis_id: number; index: string }>({
  analysis_id: pathIdParam(),
  index: Joi.string().description('The chart’s position in the analysis, from 0'),
});

/** A chart of an analysis (docs/collection.md, "Analyses and charts": field types per kind). */
const chartKeys = {
  title: Joi.string().trim().min(1).max(200).required(),
  kind: Joi.string()
    .valid(...CHART_KINDS)
    .required(),
  field: Joi.string().max(100).description('Field name (see docs/collection.md for the types per kind)'),
  split_by: Joi.string().max(100).description('A select_one field (choice_counts, over_time)'),
  bins: Joi.number().integer().min(1).max(100).description('Bins of a histogram (default 10)'),
};
const chartSchema = Joi.object(chartKeys).id('Chart');

/**
 * Body of `POST /projects/{project_id}/analyses`: `{name, description?, filters?, charts}`,
 * read without conversions (a number as a string is a 422).
 */
export const analysisBody = Joi.object<AnalysisInput>({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
  filters: Joi.object()
    .unknown(true)
    .default({})
    .description(
      'The list filters of GET /projects/{project_id}/submissions (status, date_from, date_to, collector_id, search)',
    ),
  charts: Joi.array().items(chartSchema).min(1).max(50).required(),
}).prefs({ convert: false });

/** An analysis: its filters and chart definitions as created. */
export const analysisSchema = Joi.object({
  id: Joi.number().integer().required(),
  project_id: Joi.number().integer().required(),
  name: Joi.string().required(),
  description: Joi.string().allow(null, '').required(),
  filters: Joi.object().unknown(true).required(),
  charts: Joi.array().items(chartSchema).required(),
  created_by: Joi.number().integer().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
}).id('Analysis');

/** One chart with its aggregated rows, its Vega-Lite specification and the URL of its SVG. */
export const chartViewSchema = Joi.object({
  index: Joi.number().integer().required(),
  chart: chartSchema.required(),
  data: Joi.array().items(Joi.object().unknown(true)).required(),
  vega_lite: Joi.object().unknown(true).required(),
  svg_url: Joi.string().required(),
}).id('ChartView');

/** Query of the chart routes: `lang`, the language of the labels (form model of issue 34). */
export const chartQuery = Joi.object<ChartQuery>({
  lang: Joi.string()
    .pattern(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language code')
    .max(35)
    .description(
      "Language of the labels: choice_counts rows get each choice's `label` and the axes the field's label in it (the default language's where a text has none); absent: rows and specification name values and field names",
    ),
});
