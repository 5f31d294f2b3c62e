import type { BodyReader, PageRequest } from '@fieldhouse/http';
import type { FieldErrors } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import {
  analysisJson,
  chartData,
  deleteAnalysis as removeAnalysis,
  fieldsByName,
  insertAnalysis,
  listAnalyses as selectAnalyses,
  type AnalysisField,
  type AnalysisRow,
} from '../data/analyses.ts';
import { requireAccess, userIdOf } from './access.ts';
import { renderSvg } from './chart-svg.ts';
import { KIND_FIELD_TYPES, vegaLiteSpec, type ChartDef, type ChartWording } from './charts.ts';
import type { Actor, CollectionContext } from './context.ts';
import { parseListFilters } from './list-filters.ts';

/** An analysis as the API shows it. */
export type AnalysisView = ReturnType<typeof analysisJson>;

/** `POST /projects/{project_id}/analyses`: what to chart, over which submissions. */
export interface AnalysisInput {
  name: string;
  description?: string | null;
  /** The list filters of `GET /projects/{id}/submissions` (checked here). */
  filters: unknown;
  charts: ChartDef[];
}

/** Create an analysis of a project's submissions. */
export interface CreateAnalysisCommand {
  projectId: number;
  analysis: BodyReader<AnalysisInput>;
}

/**
 * Why `split_by` cannot split chart `c` when the split field is inside a repeat, or null when it
 * can: only a choice_counts chart of a field in the same repeat instance (or a repeat inside it)
 * has one split answer per counted answer (form model of issue 34); a count of submissions
 * (over_time) or of answers elsewhere would have one split answer per instance.
 */
function repeatSplitProblem(
  c: ChartDef,
  split: AnalysisField,
  fields: Map<string, AnalysisField>,
): string | null {
  if (!split.repeats.length) return null;
  const repeatName = [...fields].find(([, f]) => f.uuids.includes(split.repeats.at(-1)!))?.[0] ?? 'a repeat';
  const counted = c.field ? fields.get(c.field) : undefined;
  const inside = counted && split.repeats.every((r, k) => counted.repeats[k] === r);
  if (c.kind === 'choice_counts' && inside) return null;
  return c.kind === 'over_time'
    ? `${c.split_by} is inside the repeat ${repeatName}: a submission holds one answer per instance, so it cannot split a count of submissions; split by a field outside repeats.`
    : `${c.split_by} is inside the repeat ${repeatName}, which does not hold ${c.field}: split by a field outside repeats or in the instances of ${repeatName} holding ${c.field}.`;
}

/**
 * Per chart: its field exists in a published version with a type the kind takes; `split_by` a
 * select_one field, outside repeats or, for choice_counts, in the repeat instance holding the
 * counted field ({@link repeatSplitProblem}).
 */
function chartErrors(charts: ChartDef[], fields: Map<string, AnalysisField>): FieldErrors {
  const errors: FieldErrors = {};
  charts.forEach((c, i) => {
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
        errors[`charts.${i}.split_by`] = [`${c.split_by} is not a select_one field of a published version.`];
      else {
        const problem = repeatSplitProblem(c, fields.get(c.split_by)!, fields);
        if (problem) errors[`charts.${i}.split_by`] = [problem];
      }
    }
    if (c.bins !== undefined && c.kind !== 'histogram')
      errors[`charts.${i}.bins`] = ['Only a histogram has bins.'];
  });
  return errors;
}

/**
 * Creates an analysis (owner, admin, manager; docs/collection.md "Analyses and charts").
 * @throws 422 on bad filters or charts (errors keyed `charts.<i>.<key>`); 404, 403 access.
 */
export async function createAnalysis(
  ctx: CollectionContext,
  actor: Actor,
  command: CreateAnalysisCommand,
): Promise<AnalysisView> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'project.manage',
    projectId: command.projectId,
  });
  const input = command.analysis();
  const filters = parseListFilters(input.filters, { convert: false });
  const errors = chartErrors(input.charts, await fieldsByName(ctx.db, project.id));
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  const row = await insertAnalysis(ctx.db, {
    project_id: project.id,
    name: input.name,
    description: input.description || null,
    filters,
    charts: input.charts,
    created_by: userIdOf(actor),
  });
  return analysisJson(row);
}

/** One page of a project's analyses, newest first (roles with stats.view). @throws 404, 403. */
export async function listAnalyses(
  ctx: CollectionContext,
  actor: Actor,
  command: { projectId: number; page: BodyReader<PageRequest> },
): Promise<{ items: AnalysisView[]; total: number }> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'stats.view',
    projectId: command.projectId,
  });
  const { rows, total } = await selectAnalyses(
    ctx.db,
    project.id,
    command.page().page,
    command.page().per_page,
  );
  return { items: rows.map(analysisJson), total };
}

/** The analysis when the actor may view (or, with `manage`, manage) its project. @throws 404, 403. */
async function analysisFor(
  ctx: CollectionContext,
  actor: Actor,
  analysisId: number,
  manage: boolean,
): Promise<AnalysisRow> {
  const { analysis } = await requireAccess(ctx, {
    actor,
    permission: manage ? 'project.manage' : 'stats.view',
    analysisId,
  });
  return analysis;
}

/** The analysis (roles with stats.view). @throws 404, 403. */
export async function getAnalysis(ctx: CollectionContext, actor: Actor, analysisId: number) {
  return analysisJson(await analysisFor(ctx, actor, analysisId, false));
}

/** Deletes an analysis (owner, admin, manager). @throws 404, 403. */
export async function deleteAnalysis(ctx: CollectionContext, actor: Actor, analysisId: number) {
  const a = await analysisFor(ctx, actor, analysisId, true);
  await removeAnalysis(ctx.db, a.id);
}

/**
 * Every chart of an analysis: its rows aggregated in PostgreSQL (data/analyses.ts), its
 * Vega-Lite specification with the rows inline, and the URL of its server-rendered SVG; with
 * `lang` (read after the access check), labels in that language ({@link inLanguage}).
 * @throws 422 a malformed `lang`; 404, 403, 401 as the analysis.
 */
export async function analysisCharts(
  ctx: CollectionContext,
  actor: Actor,
  command: { analysisId: number; query: BodyReader<ChartQuery> },
) {
  const a = await analysisFor(ctx, actor, command.analysisId, false);
  const { lang } = command.query();
  const fields = await fieldsByName(ctx.db, a.project_id);
  const out = [];
  for (const [index, chart] of a.charts.entries()) {
    const { data, wording } = inLanguage(
      chart,
      await chartData(ctx.db, a.project_id, a.filters, chart, fields),
      fields,
      lang,
    );
    out.push({
      index,
      chart,
      data,
      vega_lite: vegaLiteSpec(chart, data, wording),
      svg_url: `/api/v1/analyses/${a.id}/charts/${index}.svg${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`,
    });
  }
  return out;
}

/** The query of the chart routes: `lang`, the language of the labels (form model of issue 34). */
export interface ChartQuery {
  lang?: string;
}

/** `translations[lang].label`, else the default language's `label`. */
const labelIn = (t: { label: string; translations?: Record<string, { label?: string }> }, lang: string) =>
  t.translations?.[lang]?.label ?? t.label;

/**
 * A chart's rows and wording for `lang` (docs/collection.md, "Analyses and charts"): with a
 * `lang`, choice_counts rows get the choice's `label` in it (the default language's where it
 * has none; the value for a value no version lists) and the axis the field's label; without
 * one, rows and specification as before. Counts of a field inside a repeat count answers.
 */
function inLanguage(
  chart: ChartDef,
  data: Array<Record<string, unknown>>,
  fields: Map<string, AnalysisField>,
  lang: string | undefined,
): { data: Array<Record<string, unknown>>; wording: ChartWording } {
  const field = chart.field ? fields.get(chart.field) : undefined;
  const wording: ChartWording = field?.repeats.length ? { counted: 'answers' } : {};
  if (!lang || !field) return { data, wording };
  wording.fieldTitle = labelIn(field, lang);
  if (chart.kind !== 'choice_counts') return { data, wording };
  wording.labelled = true;
  const choices = new Map(field.choices.map((c) => [c.value, c]));
  return {
    data: data.map((r) => {
      const c = choices.get(String(r.value));
      return { ...r, label: c ? labelIn(c, lang) : r.value };
    }),
    wording,
  };
}

/**
 * A chart rendered as SVG (`lang` as {@link analysisCharts}).
 * @throws 404 unknown analysis or chart index; 403, 401 as the analysis.
 */
export async function chartSvg(
  ctx: CollectionContext,
  actor: Actor,
  command: { analysisId: number; index: string; query: BodyReader<ChartQuery> },
): Promise<string> {
  const a = await analysisFor(ctx, actor, command.analysisId, false);
  const index = Number(command.index);
  const chart = Number.isInteger(index) ? a.charts[index] : undefined;
  if (!chart) throw problems.notFound({ resource: 'chart' });
  const { lang } = command.query();
  const fields = await fieldsByName(ctx.db, a.project_id);
  const { data, wording } = inLanguage(
    chart,
    await chartData(ctx.db, a.project_id, a.filters, chart, fields),
    fields,
    lang,
  );
  return renderSvg(vegaLiteSpec(chart, data, wording));
}
