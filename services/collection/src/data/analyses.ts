import type { Knex } from 'knex';
import type { ChartDef } from '../domain/types.ts';
import { applyFilters, type ListFilters } from './submission-list.ts';

export interface AnalysisRow {
  id: number;
  project_id: number;
  name: string;
  description: string | null;
  filters: ListFilters;
  charts: ChartDef[];
  created_by: number;
  created_at: Date;
  updated_at: Date;
}

export const analysisJson = (a: AnalysisRow) => ({
  id: a.id,
  project_id: a.project_id,
  name: a.name,
  description: a.description,
  filters: a.filters,
  charts: a.charts,
  created_by: a.created_by,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

export const findAnalysis = (db: Knex, id: number): Promise<AnalysisRow | undefined> =>
  db('analyses').where({ id }).first();

/** A field of an analysis, by name, over the project's published versions. */
export interface AnalysisField {
  type: string;
  /** Its uuids (a name may have several, one per field it named). */
  uuids: string[];
  /** The uuids of the repeats around it, outermost first (empty: one answer per submission). */
  repeats: string[];
  /** Label and choices of the newest version that has it, as stored (translations included). */
  label: string;
  translations: Record<string, { label?: string }>;
  choices: Array<{ value: string; label: string; translations?: Record<string, { label?: string }> }>;
}

/**
 * Fields by name over the project's published versions (newest version first); a field's
 * `repeats` are read from its `parent` chain (groups skipped) in the newest version that has it.
 */
export async function fieldsByName(db: Knex, projectId: number): Promise<Map<string, AnalysisField>> {
  const rows = (await db('fields as f')
    .join('form_versions as v', 'v.id', 'f.version_id')
    .where({ 'v.project_id': projectId, 'v.status': 'published' })
    .orderBy([
      { column: 'v.number', order: 'desc' },
      { column: 'f.id', order: 'asc' },
    ])
    .select(
      'f.name',
      'f.type',
      'f.uuid',
      'f.parent',
      'f.label',
      'f.translations',
      'f.choices',
      'v.id as version_id',
    )) as Array<{
    name: string;
    type: string;
    uuid: string;
    parent: string | null;
    label: string;
    translations: AnalysisField['translations'] | null;
    choices: AnalysisField['choices'] | null;
    version_id: number;
  }>;
  const byVersionName = new Map(rows.map((r) => [`${r.version_id}/${r.name}`, r]));
  const repeatsOf = (r: (typeof rows)[number]) => {
    const chain: string[] = [];
    const seen = new Set<string>();
    for (
      let p = r.parent ? byVersionName.get(`${r.version_id}/${r.parent}`) : undefined;
      p && !seen.has(p.name);
    ) {
      seen.add(p.name);
      if (p.type === 'repeat') chain.unshift(p.uuid);
      p = p.parent ? byVersionName.get(`${p.version_id}/${p.parent}`) : undefined;
    }
    return chain;
  };
  const out = new Map<string, AnalysisField>();
  for (const r of rows) {
    const e = out.get(r.name) ?? {
      type: r.type,
      uuids: [],
      repeats: repeatsOf(r),
      label: r.label,
      translations: r.translations ?? {},
      choices: r.choices ?? [],
    };
    if (!e.uuids.includes(r.uuid)) e.uuids.push(r.uuid);
    out.set(r.name, e);
  }
  return out;
}

/**
 * The answers to a field as jsonb, over submissions `s` of query `q`: for a top-level field the
 * first entry whose uuid is one of `uuids` (one value per submission, null when unanswered,
 * `v` a scalar subquery); for a field inside repeats a lateral join down its repeats' instances
 * (one row per instance that has an entry for it, `v` = `rv.v`; a submission without any
 * gives no row).
 */
function withAnswers(
  db: Knex,
  q: Knex.QueryBuilder,
  field: Pick<AnalysisField, 'uuids' | 'repeats'>,
  split?: Pick<AnalysisField, 'uuids' | 'repeats'>,
): { q: Knex.QueryBuilder; v: string; split?: string } {
  if (!field.repeats.length) return { q, v: valueOf(db, field.uuids).toString() };
  const arrayOf = (v: string) => `CASE WHEN jsonb_typeof(${v}) = 'array' THEN ${v} ELSE '[]'::jsonb END`;
  let joins = `jsonb_array_elements(${arrayOf('s.data')}) e0`;
  const where: string[] = [];
  field.repeats.forEach((_, k) => {
    joins += `
      CROSS JOIN LATERAL jsonb_array_elements(${arrayOf(`e${k} -> 'value'`)}) i${k}(d)
      CROSS JOIN LATERAL jsonb_array_elements(${arrayOf(`i${k}.d`)}) e${k + 1}`;
    where.push(`e${k} ->> 'field_uuid' = ?`);
  });
  const last = `e${field.repeats.length}`;
  // A split field inside the repeats (its repeat path a prefix of the field's): its answer in
  // the instance of its own repeat that holds the counted answer.
  const inner = split?.repeats.length
    ? `, (SELECT x ->> 'value' FROM jsonb_array_elements(${arrayOf(`i${split.repeats.length - 1}.d`)}) x
          WHERE x ->> 'field_uuid' = ANY(?::text[]) LIMIT 1) AS split`
    : '';
  q.joinRaw(
    `CROSS JOIN LATERAL (SELECT ${last} -> 'value' AS v${inner} FROM ${joins}
      WHERE ${where.join(' AND ')} AND ${last} ->> 'field_uuid' = ANY(?::text[])) rv`,
    [...(inner ? [split!.uuids] : []), ...field.repeats, field.uuids],
  );
  return { q, v: 'rv.v', ...(inner ? { split: 'rv.split' } : {}) };
}

/** The value of a top-level field in `s.data` as jsonb (the first entry whose uuid is one of `uuids`). */
const valueOf = (db: Knex, uuids: string[]) =>
  db.raw(
    `(SELECT x -> 'value' FROM jsonb_array_elements(s.data) x WHERE x ->> 'field_uuid' = ANY(?::text[]) LIMIT 1)`,
    [uuids],
  );

/**
 * A chart's aggregated rows, computed in PostgreSQL over the analysis's filtered submissions
 * (a field inside a repeat counts its answers in every instance, not submissions):
 * - choice_counts: `{value, count, split?}` (a select_multiple counts each chosen value; a
 *   `split_by` inside a repeat, which the analysis's checks allow only around the counted field,
 *   splits each answer by the split field's answer in the same instance);
 * - histogram: `{bin, from, to, count}` over `bins` equal bins between the minimum and maximum;
 * - over_time: `{day (YYYY-MM-DD, UTC), count, split?}`;
 * - map: `{id, latitude, longitude}` (at most 5,000 points, newest first; `id` the submission's);
 * - status: `{status, count}`.
 */
export async function chartData(
  db: Knex,
  projectId: number,
  filters: ListFilters,
  chart: ChartDef,
  fields: Map<string, AnalysisField>,
): Promise<Array<Record<string, unknown>>> {
  const base = () => applyFilters(db('submissions as s'), projectId, filters);
  const field = chart.field ? fields.get(chart.field) : undefined;
  const split = chart.split_by ? fields.get(chart.split_by) : undefined;
  const splitCol = split
    ? [
        db.raw(
          `(SELECT x ->> 'value' FROM jsonb_array_elements(s.data) x WHERE x ->> 'field_uuid' = ANY(?::text[]) LIMIT 1) AS split`,
          [split.uuids],
        ),
      ]
    : [];
  const num = (rows: Array<Record<string, unknown>>, keys: string[]) =>
    rows.map((r) => {
      const out = { ...r };
      for (const k of keys) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
      if (!split) delete out.split;
      return out;
    });
  switch (chart.kind) {
    case 'status': {
      const rows = await base()
        .select('s.status')
        .count({ count: '*' })
        .groupBy('s.status')
        .orderBy('s.status');
      return num(rows, ['count']);
    }
    case 'over_time': {
      const inner = base().select(
        db.raw(`to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`),
        ...splitCol,
      );
      const rows = await db
        .from(inner.as('t'))
        .select('day', ...(split ? ['split'] : []))
        .count({ count: '*' })
        .groupBy('day', ...(split ? ['split'] : []))
        .orderBy(['day', ...(split ? ['split'] : [])]);
      return num(rows, ['count']);
    }
    case 'choice_counts': {
      const multiple = field!.type === 'select_multiple';
      const answers = withAnswers(db, base(), field!, split);
      const inner = answers.q
        .select(
          db.raw(`${answers.v} AS v`),
          ...(answers.split ? [db.raw(`${answers.split} AS split`)] : splitCol),
        )
        .as('t');
      const values = multiple
        ? db.raw(
            `CROSS JOIN LATERAL jsonb_array_elements_text(CASE jsonb_typeof(t.v) WHEN 'array' THEN t.v ELSE '[]'::jsonb END) AS c(value)`,
          )
        : db.raw(`CROSS JOIN LATERAL (SELECT t.v #>> '{}' WHERE jsonb_typeof(t.v) = 'string') AS c(value)`);
      const rows = await db
        .from(inner)
        .joinRaw(values.toString())
        .select('c.value', ...(split ? ['t.split'] : []))
        .count({ count: '*' })
        .groupBy('c.value', ...(split ? ['t.split'] : []))
        .orderBy(['c.value', ...(split ? ['t.split'] : [])]);
      return num(rows, ['count']);
    }
    case 'histogram': {
      const bins = chart.bins ?? 10;
      const answers = withAnswers(db, base(), field!);
      const values = answers.q.select(db.raw(`(${answers.v} #>> '{}')::float8 AS v`));
      // Computed on halved values (hw: half a bin's width; halving is exact), so answers that
      // span more than float8's range (-1e308 and 1e308 are valid decimals) overflow nothing
      // (PostgreSQL's width_bucket does). A value's bin is floor(distance from the minimum /
      // width) + 1, the maximum in the last bin. A range too narrow to split is one bin.
      const { rows } = (await db.raw(
        `WITH v AS ?,
              r AS (SELECT min(v) AS lo, max(v) AS hi FROM v),
              k AS (SELECT lo, hi, CASE WHEN hi > lo AND (hi / 2 - lo / 2) / ? > 0
                                        THEN (hi / 2 - lo / 2) / ? ELSE 0.5 END AS hw FROM r)
         SELECT b AS bin, 2 * (k.lo / 2 + (b - 1) * k.hw) AS "from", 2 * (k.lo / 2 + b * k.hw) AS "to",
                count(v.v)::int AS count
         FROM k CROSS JOIN generate_series(1, CASE WHEN k.lo IS NULL THEN 0 ELSE ?::int END) AS b
         LEFT JOIN v ON v.v IS NOT NULL
                    AND LEAST(floor((v.v / 2 - k.lo / 2) / k.hw)::int + 1, ?::int) = b
         GROUP BY b, k.lo, k.hw ORDER BY b`,
        [values, bins, bins, bins, bins],
      )) as { rows: Array<Record<string, unknown>> };
      return num(rows, ['from', 'to', 'count', 'bin']);
    }
    case 'map': {
      const answers = withAnswers(db, base(), field!);
      const rows = await answers.q
        .select(
          's.id',
          db.raw(`(${answers.v} ->> 0)::float8 AS latitude`),
          db.raw(`(${answers.v} ->> 1)::float8 AS longitude`),
        )
        .orderBy([
          { column: 's.created_at', order: 'desc' },
          { column: 's.id', order: 'desc' },
        ])
        .limit(5000);
      return num(
        rows.filter((r: Record<string, unknown>) => r.latitude !== null && r.longitude !== null),
        ['id'],
      );
    }
  }
}

/** Inserts an analysis (filters and charts as JSON). */
export async function insertAnalysis(
  db: Knex,
  a: Pick<AnalysisRow, 'project_id' | 'name' | 'description' | 'filters' | 'charts' | 'created_by'>,
): Promise<AnalysisRow> {
  const [row] = (await db('analyses')
    .insert({ ...a, filters: JSON.stringify(a.filters), charts: JSON.stringify(a.charts) })
    .returning('*')) as [AnalysisRow];
  return row;
}

/** One page of a project's analyses, newest first, with their number. */
export async function listAnalyses(db: Knex, projectId: number, page: number, perPage: number) {
  const [{ n }] = (await db('analyses').where({ project_id: projectId }).count({ n: '*' })) as [
    { n: string },
  ];
  const rows = (await db('analyses')
    .where({ project_id: projectId })
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)) as AnalysisRow[];
  return { rows, total: Number(n) };
}

export const deleteAnalysis = (db: Knex, id: number) => db('analyses').where({ id }).delete();
