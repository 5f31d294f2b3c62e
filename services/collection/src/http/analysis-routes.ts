import { paginated, pageOf, pathId } from '@fieldhouse/http';
import {
  analysisCharts,
  chartSvg,
  createAnalysis,
  deleteAnalysis,
  getAnalysis,
  listAnalyses,
} from '../domain/analyses.ts';
import {
  analysisBody,
  analysisParams,
  analysisSchema,
  chartParams,
  chartQuery,
  chartViewSchema,
} from './analysis-schemas.ts';
import { envelope, pageQuery } from './common-schemas.ts';
import { projectParams } from './project-schemas.ts';
import { route } from './declare.ts';
import Joi from 'joi';

const tags = ['Analyses'];

/** Analyses and charts (spec 4.1; docs/collection.md, "Analyses and charts"). */
export const analysisRoutes = [
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/analyses',
    operationId: 'createAnalysis',
    summary: 'Create an analysis with charts (owner, admin, manager)',
    description:
      'Each chart’s field must exist in a published version with a type its kind accepts; `split_by` a select_one field.',
    tags,
    params: projectParams,
    body: analysisBody,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: envelope(analysisSchema) } },
    problems: {
      403: 'Role may not manage the project',
      404: 'Not found',
      422: 'Bad chart, field or filters (errors keyed charts.<i>.<key>)',
    },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: {
        data: await createAnalysis(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          analysis: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/analyses',
    operationId: 'listAnalyses',
    summary: 'Analyses of a project (owner, admin, manager, viewer)',
    description: 'Pagination envelope, newest first.',
    tags,
    params: projectParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(analysisSchema) } },
    problems: { 403: 'Role may not view stats', 404: 'Not found', 422: 'Bad page or per_page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listAnalyses(ctx, req.caller, {
        projectId: pathId(params.project_id, 'projectId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/analyses/{analysis_id}',
    operationId: 'getAnalysis',
    summary: 'An analysis',
    tags,
    params: analysisParams,
    responses: { 200: { description: 'The analysis', body: envelope(analysisSchema) } },
    problems: { 403: 'Role may not view stats', 404: 'Not found' },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getAnalysis(ctx, req.caller, pathId(params.analysis_id, 'analysisId')) },
    }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/analyses/{analysis_id}',
    operationId: 'deleteAnalysis',
    summary: 'Delete an analysis (owner, admin, manager)',
    tags,
    params: analysisParams,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'Role may not manage', 404: 'Not found' },
    handler: async ({ params }, ctx, req) => {
      await deleteAnalysis(ctx, req.caller, pathId(params.analysis_id, 'analysisId'));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/analyses/{analysis_id}/charts',
    operationId: 'getAnalysisCharts',
    summary: 'Every chart: rows aggregated in SQL, Vega-Lite specification, URL of its SVG',
    tags,
    params: analysisParams,
    query: chartQuery,
    parseQuery: 'by-use-case',
    responses: {
      200: {
        description: 'Charts',
        body: Joi.object({ data: Joi.array().items(chartViewSchema).required() }),
      },
    },
    problems: { 403: 'Role may not view stats', 404: 'Not found', 422: 'Bad lang' },
    handler: async ({ params, readQuery }, ctx, req) => ({
      body: {
        data: await analysisCharts(ctx, req.caller, {
          analysisId: pathId(params.analysis_id, 'analysisId'),
          query: readQuery,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/analyses/{analysis_id}/charts/{index}.svg',
    operationId: 'getChartSvg',
    summary: 'A chart rendered as SVG on the server',
    tags,
    params: chartParams,
    query: chartQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'SVG', content: { 'image/svg+xml': { type: 'string' } } } },
    problems: { 403: 'Role may not view stats', 404: 'Unknown analysis or chart', 422: 'Bad lang' },
    handler: async ({ params, readQuery }, ctx, req, res) => {
      const svg = await chartSvg(ctx, req.caller, {
        analysisId: pathId(params.analysis_id, 'analysisId'),
        index: params.index,
        query: readQuery,
      });
      res.type('image/svg+xml').send(svg);
    },
  }),
];
