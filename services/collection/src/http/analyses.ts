import { Router, type Request } from 'express';
import Joi from 'joi';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { idParam, paginated, parsePageQuery } from '@fieldhouse/http';
import { notFound, validate, validationFailed, type FieldErrors } from '@fieldhouse/problem';
import { CHART_KINDS, KIND_FIELD_TYPES, vegaLiteSpec, type ChartDef } from '../domain/charts.ts';
import { analysisJson, chartData, fieldsByName, findAnalysis, type AnalysisRow } from '../data/analyses.ts';
import { projectFor } from './access.ts';
import type { CollectionContext } from './context.ts';
import { parseListFilters } from './list-filters.ts';

const chartSchema = Joi.object({
  title: Joi.string().trim().min(1).max(200).required(),
  kind: Joi.string()
    .valid(...CHART_KINDS)
    .required(),
  field: Joi.string().max(100),
  split_by: Joi.string().max(100),
  bins: Joi.number().integer().min(1).max(100),
});

/** Body of `POST /projects/{id}/analyses`. */
const analysisSchema = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
  filters: Joi.object().unknown(true).default({}),
  charts: Joi.array().items(chartSchema).min(1).max(50).required(),
});

/** Loads an analysis for a member allowed `stats.view` (or `project.manage`); 404 otherwise. */
async function analysisFor(ctx: CollectionContext, req: Request, manage: boolean): Promise<AnalysisRow> {
  const a = await findAnalysis(ctx.db, idParam(req, 'analysisId'));
  if (!a) throw notFound('Analysis not found.');
  await projectFor(ctx, req, a.project_id, manage ? 'project.manage' : 'stats.view').catch((err: unknown) => {
    throw err instanceof Error && 'status' in err && err.status === 404
      ? notFound('Analysis not found.')
      : err;
  });
  return a;
}

/** Renders a Vega-Lite specification to SVG on the server (vega, no browser, no canvas). */
async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as unknown as TopLevelSpec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Analyses and charts (spec 4.1; docs/collection.md, "Analyses and charts"). */
export function analysisRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /**
   * POST /projects/{id}/analyses `{name, description?, filters?, charts: [{title, kind, field?,
   * split_by?, bins?}]}` → 201. Owner, admin, manager. Each chart's field must exist in a
   * published version with a type its kind accepts; `split_by` a select_one field (422 otherwise).
   */
  r.post('/api/v1/projects/:projectId/analyses', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.manage');
    const body = validate(analysisSchema, req.body, { convert: false }) as {
      name: string;
      description?: string | null;
      filters: unknown;
      charts: ChartDef[];
    };
    const filters = parseListFilters(body.filters, { convert: false });
    const fields = await fieldsByName(ctx.db, project.id);
    const errors: FieldErrors = {};
    body.charts.forEach((c, i) => {
      const types = KIND_FIELD_TYPES[c.kind];
      if (types) {
        const f = c.field ? fields.get(c.field) : undefined;
        if (!c.field)
          errors[`charts.${i}.field`] = [`A ${c.kind} chart needs a field (${types.join(' or ')}).`];
        else if (!f || !types.includes(f.type))
          errors[`charts.${i}.field`] = [
            `${c.field} is not a ${types.join(' or ')} field of a published version.`,
          ];
      } else if (c.field) errors[`charts.${i}.field`] = [`A ${c.kind} chart takes no field.`];
      if (c.split_by) {
        if (c.kind !== 'choice_counts' && c.kind !== 'over_time')
          errors[`charts.${i}.split_by`] = ['Only choice_counts and over_time charts can be split.'];
        else if (fields.get(c.split_by)?.type !== 'select_one')
          errors[`charts.${i}.split_by`] = [
            `${c.split_by} is not a select_one field of a published version.`,
          ];
      }
      if (c.bins !== undefined && c.kind !== 'histogram')
        errors[`charts.${i}.bins`] = ['Only a histogram has bins.'];
    });
    if (Object.keys(errors).length) throw validationFailed(errors);
    const [row] = (await ctx
      .db('analyses')
      .insert({
        project_id: project.id,
        name: body.name,
        description: body.description || null,
        filters: JSON.stringify(filters),
        charts: JSON.stringify(body.charts),
        created_by: req.caller.userId,
      })
      .returning('*')) as [AnalysisRow];
    res.status(201).json({ data: analysisJson(row) });
  });

  /** GET /projects/{id}/analyses: pagination envelope, newest first; roles with stats.view. */
  r.get('/api/v1/projects/:projectId/analyses', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'stats.view');
    const page = parsePageQuery(req.query);
    const [{ n }] = (await ctx.db('analyses').where({ project_id: project.id }).count({ n: '*' })) as [
      { n: string },
    ];
    const rows = (await ctx
      .db('analyses')
      .where({ project_id: project.id })
      .orderBy('id', 'desc')
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page)) as AnalysisRow[];
    res.json(paginated(rows.map(analysisJson), page, Number(n)));
  });

  /** GET /analyses/{id}: the analysis; 404 unless the caller may view its project's stats. */
  r.get('/api/v1/analyses/:analysisId', async (req, res) => {
    res.json({ data: analysisJson(await analysisFor(ctx, req, false)) });
  });

  /** DELETE /analyses/{id}: 204; owner, admin, manager (viewers 403). */
  r.delete('/api/v1/analyses/:analysisId', async (req, res) => {
    const a = await analysisFor(ctx, req, true);
    await ctx.db('analyses').where({ id: a.id }).delete();
    res.status(204).end();
  });

  /**
   * GET /analyses/{id}/charts: `{data: [{index, chart, data, vega_lite, svg_url}]}`: every
   * chart's rows aggregated in PostgreSQL (data/analyses.ts), its Vega-Lite specification with
   * the rows inline, and the URL of its server-rendered SVG.
   */
  r.get('/api/v1/analyses/:analysisId/charts', async (req, res) => {
    const a = await analysisFor(ctx, req, false);
    const fields = await fieldsByName(ctx.db, a.project_id);
    const out = [];
    for (const [index, chart] of a.charts.entries()) {
      const data = await chartData(ctx.db, a.project_id, a.filters, chart, fields);
      out.push({
        index,
        chart,
        data,
        vega_lite: vegaLiteSpec(chart, data),
        svg_url: `/api/v1/analyses/${a.id}/charts/${index}.svg`,
      });
    }
    res.json({ data: out });
  });

  /** GET /analyses/{id}/charts/{index}.svg: the chart rendered as SVG (image/svg+xml). */
  r.get('/api/v1/analyses/:analysisId/charts/:index.svg', async (req, res) => {
    const a = await analysisFor(ctx, req, false);
    const index = Number(req.params.index);
    const chart = Number.isInteger(index) ? a.charts[index] : undefined;
    if (!chart) throw notFound('Chart not found.');
    const data = await chartData(
      ctx.db,
      a.project_id,
      a.filters,
      chart,
      await fieldsByName(ctx.db, a.project_id),
    );
    res.type('image/svg+xml').send(await renderSvg(vegaLiteSpec(chart, data)));
  });

  return r;
}
