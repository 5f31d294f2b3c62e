import type { Knex } from 'knex';
import pg from 'pg';
import {
  FORMULA_TRIGGERS,
  PHOTO_TYPES,
  PLAIN_NUMBER,
  type ColumnSource,
  type ExportColumn,
  type ExportField,
  type PhotoCells,
} from '../domain/types.ts';
import type { ExportJobRow } from './exports.ts';
import { applyFilters } from './submission-list.ts';

/** A text literal for SQL built here (libpq's escaping: quotes doubled, `E''` with backslashes). */
const lit = (s: string) => pg.escapeLiteral(s);

/**
 * The fields of a project's published versions, newest version first, each field uuid once
 * (a field kept across versions keeps its uuid): the export's fields in form order (depth
 * first: a group's or repeat's fields follow it, siblings by position). A select field's
 * choices are those of every version, the newest version's first. `latest` counts the fields
 * of the newest published version, which come first. Each field's `repeats` are the repeats
 * around it in the newest version that has it (its `parent` chain, groups skipped); `label` is
 * the one of `lang` where the field has it (`translations`), else the default language's; with
 * `lang`, `choiceLabels` likewise for each choice (the newest version's label of a value).
 */
export async function exportFields(
  db: Knex,
  projectId: number,
  lang?: string,
): Promise<{ fields: ExportField[]; latest: number }> {
  const rows = (await db('fields as f')
    .join('form_versions as v', 'v.id', 'f.version_id')
    .where({ 'v.project_id': projectId, 'v.status': 'published' })
    .orderBy([
      { column: 'v.number', order: 'desc' },
      { column: 'f.position', order: 'asc' },
      { column: 'f.id', order: 'asc' },
    ])
    .select(
      'f.uuid',
      'f.name',
      lang ? db.raw(`COALESCE(f.translations -> ? ->> 'label', f.label) AS label`, [lang]) : 'f.label',
      'f.type',
      'f.choices',
      'f.parent',
      'v.number',
    )) as Array<
    Omit<ExportField, 'choices' | 'repeats'> & {
      choices: Array<{
        value: string;
        label: string;
        translations?: Record<string, { label?: string }>;
      }> | null;
      number: number;
      parent: string | null;
    }
  >;
  const byUuid = new Map<string, ExportField>();
  let latest = 0;
  for (const version of inTreeOrder(rows)) {
    const byName = new Map(version.map((r) => [r.name, r]));
    const repeatsOf = (r: (typeof rows)[number]): string[] => {
      const chain: string[] = [];
      const seen = new Set<string>();
      for (let p = r.parent ? byName.get(r.parent) : undefined; p && !seen.has(p.name);) {
        seen.add(p.name);
        if (p.type === 'repeat') chain.unshift(p.uuid);
        p = p.parent ? byName.get(p.parent) : undefined;
      }
      return chain;
    };
    for (const r of version) {
      if (r.number === rows[0]!.number) latest++;
      const seen = byUuid.get(r.uuid);
      const choices = (r.choices ?? []).map((c) => c.value);
      const labels = lang
        ? Object.fromEntries(
            (r.choices ?? []).map((c) => [c.value, c.translations?.[lang]?.label ?? c.label]),
          )
        : undefined;
      if (seen) {
        seen.choices.push(...choices.filter((c) => !seen.choices.includes(c)));
        if (labels) seen.choiceLabels = { ...labels, ...seen.choiceLabels };
      } else
        byUuid.set(r.uuid, {
          uuid: r.uuid,
          name: r.name,
          label: r.label,
          type: r.type,
          choices,
          repeats: repeatsOf(r),
          ...(labels ? { choiceLabels: labels } : {}),
        });
    }
  }
  return { fields: [...byUuid.values()], latest };
}

/**
 * Rows ordered by version (as given), each version's fields depth first: top-level fields by
 * position, each followed by its members (`parent`, a group or repeat name). A flat version
 * keeps its order; a field whose parent is missing stays at the top level.
 */
function inTreeOrder<R extends { name: string; parent: string | null; number: number }>(rows: R[]): R[][] {
  const versions: R[][] = [];
  for (const r of rows) {
    const last = versions.at(-1);
    if (last && last[0]!.number === r.number) last.push(r);
    else versions.push([r]);
  }
  return versions.map((version) => {
    if (version.every((r) => !r.parent)) return version;
    const names = new Set(version.map((r) => r.name));
    const children = new Map<string | null, R[]>();
    for (const r of version) {
      const key = r.parent && names.has(r.parent) ? r.parent : null;
      children.set(key, [...(children.get(key) ?? []), r]);
    }
    const out: R[] = [];
    const visit = (parent: string | null) => {
      for (const r of children.get(parent) ?? []) {
        if (out.includes(r)) continue;
        out.push(r);
        visit(r.name);
      }
    };
    visit(null);
    return out;
  });
}

/** The rows of a job (the list endpoint's filters, same code) with the columns the export reads. */
function filteredSubmissions(db: Knex, job: ExportJobRow) {
  const q = db('submissions as s')
    .leftJoin('users as u', 'u.id', 's.collector_id')
    .join('form_versions as v', 'v.id', 's.form_version_id')
    .select(
      's.id',
      's.status',
      's.collector_id',
      'u.name as collector_name',
      'v.number as form_version',
      's.created_at',
      's.updated_at',
      's.latitude',
      's.longitude',
      's.data',
    );
  return applyFilters(q, job.project_id, job.filters);
}

/** Number of rows a job selects. */
export async function countExportRows(db: Knex, job: ExportJobRow): Promise<number> {
  const [{ n }] = (await filteredSubmissions(db, job).clearSelect().count({ n: '*' })) as [{ n: string }];
  return Number(n);
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** File extension of each photo type (domain/photos.ts) inside a media zip; `bin` for any other. */
const PHOTO_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/avif': 'avif',
};
for (const t of PHOTO_TYPES) if (!PHOTO_EXTENSIONS[t]) throw new Error(`no file extension for ${t}`);

/**
 * SQL of a stored photo's path inside the media zip, from its value `v` (`{photo_id,
 * content_type, ...}`, made by the server): `media/<photo_id>.<ext>`. The CSV's photo column and
 * the media entries are both named by this one expression.
 */
const mediaPathSql = (v: string) =>
  `'media/' || (${v} ->> 'photo_id') || '.' || CASE ${v} ->> 'content_type' ${Object.entries(PHOTO_EXTENSIONS)
    .map(([type, ext]) => `WHEN ${lit(type)} THEN ${lit(ext)}`)
    .join(' ')} ELSE 'bin' END`;

/** SQL of a photo cell (`v` its JSONB value): see {@link PhotoCells}; a value that is not an object as text. */
function photoSql(v: string, photos: PhotoCells): string {
  const cell =
    photos.kind === 'media'
      ? `CASE WHEN ${v} ->> 'photo_id' IS NULL THEN ${v} ->> 'url' ELSE ${mediaPathSql(v)} END`
      : `CASE WHEN left(${v} ->> 'url', 1) = '/' THEN ${lit(photos.base)} || (${v} ->> 'url') ELSE ${v} ->> 'url' END`;
  return `CASE WHEN jsonb_typeof(${v}) = 'object' THEN ${cell} ELSE ${v} #>> '{}' END`;
}

/** SQL text of one column (`v` is the field's JSONB value, `s` the submission, `keys` a repeat row's keys). */
function columnSql(
  source: ColumnSource,
  valueOf: (uuid: string) => string,
  photos: PhotoCells,
  keys: { key: string; parent_key: string },
): string {
  switch (source.kind) {
    case 'instance':
      return source.part === 'submission_id' ? 's.id' : keys[source.part];
    case 'meta':
      return source.column === 'created_at' || source.column === 'updated_at'
        ? `to_char(s.${source.column} AT TIME ZONE 'UTC', ${ISO_UTC})`
        : `s.${source.column}`;
    case 'value':
      return `${valueOf(source.uuid)} #>> '{}'`;
    case 'photo':
      return photoSql(valueOf(source.uuid), photos);
    case 'joined': {
      const v = valueOf(source.uuid);
      return `CASE WHEN jsonb_typeof(${v}) = 'array'
        THEN NULLIF(array_to_string(ARRAY(SELECT jsonb_array_elements_text(${v})), ' '), '')
        ELSE ${v} #>> '{}' END`;
    }
    case 'choice': {
      const v = valueOf(source.uuid);
      return `CASE WHEN ${v} IS NULL THEN NULL WHEN ${v} @> ${lit(JSON.stringify([source.choice]))}::jsonb THEN 1 ELSE 0 END`;
    }
    case 'geo':
      return `${valueOf(source.uuid)} ->> ${source.index}`;
  }
}

/** Whether a column's SQL value is text (the others are integers or numerics). */
const isText = (c: ExportColumn) =>
  c.source.kind === 'meta' || c.source.kind === 'instance' ? !c.numeric : c.source.kind !== 'choice';

/** SQL of `ref` (a text column) with the formula rule of domain/formula-escaping.ts applied. */
const neutralisedSql = (ref: string) =>
  `CASE WHEN left(${ref}, 1) IN (${FORMULA_TRIGGERS.map(lit).join(', ')}) AND ${ref} !~ ${lit(PLAIN_NUMBER)}
    THEN '''' || ${ref} ELSE ${ref} END`;

/**
 * The SELECT of an export: one text-like column per export column, oldest submission first.
 * Everything is computed in PostgreSQL, so the same text serves `COPY (...) TO STDOUT` (CSV)
 * and a cursor (xlsx, GeoJSON).
 *
 * How a value is found: `data` is an array of `{field_uuid, type, value}` entries. Each row's
 * `data` is detoasted once (`OFFSET 0` keeps the planner from inlining it into every column,
 * which would decompress it once per column). A row whose entries are exactly the newest
 * version's fields in form order (what clients send for a complete form) is read by position;
 * any other row is turned once into a `{field_uuid: value}` object and read by key. Filter
 * values come from the validated job and are inlined with knex's PostgreSQL escaping (COPY
 * takes no parameters); field uuids and choice values with {@link lit}.
 *
 * With `neutraliseFormulas` (CSV), the values are computed once in a lateral subquery (`OFFSET
 * 0`: not inlined, so no value is computed twice) and every text column goes through the
 * formula rule (domain/formula-escaping.ts). `photos` says what a photo cell holds
 * ({@link PhotoCells}: the absolute URL of the photo, or its path in the media zip).
 */
export function exportSelectSql(
  db: Knex,
  job: ExportJobRow,
  fields: ExportField[],
  latest: number,
  columns: ExportColumn[],
  {
    neutraliseFormulas = false,
    photos,
    repeats = [],
  }: { neutraliseFormulas?: boolean; photos: PhotoCells; repeats?: RepeatStep[] },
): string {
  if (repeats.length) return repeatSelectSql(db, job, columns, { neutraliseFormulas, photos, repeats });
  const slot = new Map(fields.map((f, i) => [f.uuid, i]));
  const valueOf = (uuid: string) => {
    const i = slot.get(uuid)!;
    return i < latest
      ? `(CASE WHEN x.m IS NULL THEN x.d -> ${i} -> 'value' ELSE x.m -> ${lit(uuid)} END)`
      : `(x.m -> ${lit(uuid)})`;
  };
  const inLayout = fields
    .slice(0, latest)
    .map((f, i) => `z.d -> ${i} ->> 'field_uuid' = ${lit(f.uuid)}`)
    .join(' AND ');
  const noKeys = { key: 'NULL', parent_key: 'NULL' };
  const { select, computed } = selectList(
    columns,
    columns.map((c) => columnSql(c.source, valueOf, photos, noKeys)),
    neutraliseFormulas,
  );
  return `SELECT ${select}
  FROM (${filteredSubmissions(db, job).toQuery()}) s
  CROSS JOIN LATERAL (
    SELECT z.d,
      CASE WHEN jsonb_array_length(z.d) = ${latest}${inLayout ? ` AND ${inLayout}` : ''} THEN NULL
        ELSE (SELECT jsonb_object_agg(e ->> 'field_uuid', e -> 'value') FROM jsonb_array_elements(z.d) e)
      END AS m
    FROM (SELECT s.data || '[]'::jsonb AS d OFFSET 0) z
    OFFSET 0) x${computed}
  ORDER BY s.created_at, s.id`;
}

/** The select list of `values` (one per column), with the formula rule through a lateral subquery. */
function selectList(columns: ExportColumn[], values: string[], neutraliseFormulas: boolean) {
  const select = neutraliseFormulas
    ? columns.map((c, i) => (isText(c) ? neutralisedSql(`c.c${i}`) : `c.c${i}`)).join(',\n')
    : values.join(',\n');
  const computed = neutraliseFormulas
    ? `
  CROSS JOIN LATERAL (SELECT ${values.map((v, i) => `${v} AS c${i}`).join(',\n')} OFFSET 0) c`
    : '';
  return { select, computed };
}

/** One repeat on the way from a submission down to a repeat's instances: its field uuid and name. */
interface RepeatStep {
  uuid: string;
  name: string;
}

/** SQL of the instances (a JSONB array, empty when unanswered) of repeat `uuid` in entries `d`. */
const instancesSql = (d: string, uuid: string) =>
  `(SELECT CASE WHEN jsonb_typeof(e -> 'value') = 'array' THEN e -> 'value' ELSE '[]'::jsonb END
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${d}) = 'array' THEN ${d} ELSE '[]'::jsonb END) e
     WHERE e ->> 'field_uuid' = ${lit(uuid)} LIMIT 1)`;

/**
 * The lateral joins from a submission `s` down to the instances of the last of `repeats` (one
 * row per instance, `i<k>.d` its entries and `i<k>.n` its place from 1 at level k), with the
 * SQL of each row's `key` (`<submission id>/<repeat>[<n>]`, nested repeats appending
 * `/<repeat>[<n>]`, as ODK Central's KEY) and of its `parent_key` (its parent instance's key,
 * or the submission id).
 */
function instanceJoins(repeats: RepeatStep[]) {
  let joins = '';
  let key = `s.id::text`;
  let parentKey = key;
  repeats.forEach((r, k) => {
    const from = k === 0 ? 's.data' : `i${k - 1}.d`;
    joins += `
  CROSS JOIN LATERAL jsonb_array_elements(${instancesSql(from, r.uuid)}) WITH ORDINALITY AS i${k}(d, n)`;
    parentKey = key;
    key = `${key} || ${lit(`/${r.name}[`)} || i${k}.n || ']'`;
  });
  return { joins, key: `(${key})`, parentKey: `(${parentKey})`, last: `i${repeats.length - 1}` };
}

/**
 * The SELECT of a repeat's table: one row per instance of the last of `repeats` (the repeats
 * from the top down) over the job's submissions, in the order of the submissions (oldest
 * first) then of the instances; each instance's entries are turned once into a `{field_uuid:
 * value}` object and read by key. Columns as {@link exportSelectSql}'s, plus its keys.
 */
function repeatSelectSql(
  db: Knex,
  job: ExportJobRow,
  columns: ExportColumn[],
  opts: { neutraliseFormulas: boolean; photos: PhotoCells; repeats: RepeatStep[] },
): string {
  const { joins, key, parentKey, last } = instanceJoins(opts.repeats);
  const valueOf = (uuid: string) => `(x.m -> ${lit(uuid)})`;
  const values = columns.map((c) =>
    columnSql(c.source, valueOf, opts.photos, { key, parent_key: parentKey }),
  );
  const { select, computed } = selectList(columns, values, opts.neutraliseFormulas);
  const order = opts.repeats.map((_, k) => `i${k}.n`).join(', ');
  return `SELECT ${select}
  FROM (${filteredSubmissions(db, job).toQuery()}) s${joins}
  CROSS JOIN LATERAL (
    SELECT (SELECT jsonb_object_agg(e ->> 'field_uuid', e -> 'value')
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${last}.d) = 'array' THEN ${last}.d ELSE '[]'::jsonb END) e) AS m
    OFFSET 0) x${computed}
  ORDER BY s.created_at, s.id, ${order}`;
}

/** A photo of a media zip: where the archive puts it, and where the blob store keeps it. */
export interface ExportMediaRow {
  /** `media/<photo_id>.<ext>`, as the CSV's photo column names it. */
  path: string;
  blob_key: string;
  /** The place of its submission among the export's rows (1 for the first), as text (bigint). */
  k: string;
}

/**
 * SQL of the photos a media zip holds: for each row of the export (same filters, same order),
 * the stored photos its answers to `photoFields` (field uuids of the export's photo columns)
 * name, in the order of the answers, joined to `photos` for the blob key (a photo is found by
 * its id among its own submission's photos; a value naming no stored photo gives nothing).
 * Columns `path` ({@link mediaPathSql}, the CSV's text), `blob_key` and `k`, the row's place
 * in the export (1 for its first row), for the job's progress. `repeatTables`: the photo fields
 * of each repeat's table with the way down to its instances; their photos come after the
 * submission's own, table by table, in instance order.
 */
export function exportMediaSql(
  db: Knex,
  job: ExportJobRow,
  photoFields: string[],
  repeatTables: Array<{ repeats: RepeatStep[]; photoFields: string[] }> = [],
): string {
  const tables = [{ repeats: [] as RepeatStep[], photoFields }, ...repeatTables].filter(
    (t) => t.photoFields.length,
  );
  if (!tables.length) return 'SELECT NULL::text AS path, NULL::text AS blob_key, 0::bigint AS k WHERE false';
  const numbered = `(SELECT f.*, row_number() OVER (ORDER BY f.created_at, f.id) AS k
        FROM (${filteredSubmissions(db, job).toQuery()}) f) s`;
  if (tables.length === 1 && !tables[0]!.repeats.length)
    return `SELECT ${mediaPathSql("e.value -> 'value'")} AS path, p.blob_key, s.k
  FROM ${numbered}
  CROSS JOIN LATERAL jsonb_array_elements(s.data || '[]'::jsonb) WITH ORDINALITY AS e(value, n)
  JOIN photos p ON p.submission_id = s.id AND p.id::text = e.value -> 'value' ->> 'photo_id'
  WHERE e.value ->> 'field_uuid' IN (${photoFields.map(lit).join(', ')})
    AND jsonb_typeof(e.value -> 'value') = 'object'
  ORDER BY s.k, e.n`;
  const parts = tables.map((t, index) => {
    const { joins, last } = t.repeats.length ? instanceJoins(t.repeats) : { joins: '', last: '' };
    const entries = last ? `${last}.d` : 's.data';
    const order = [...t.repeats.map((_, k) => `i${k}.n`), 'e.n'].join(', ');
    return `SELECT ${mediaPathSql("e.value -> 'value'")} AS path, p.blob_key, s.k, ${index} AS t,
    ARRAY[${order}]::bigint[] AS o
  FROM ${numbered}${joins}
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(${entries}) = 'array' THEN ${entries} ELSE '[]'::jsonb END) WITH ORDINALITY AS e(value, n)
  JOIN photos p ON p.submission_id = s.id AND p.id::text = e.value -> 'value' ->> 'photo_id'
  WHERE e.value ->> 'field_uuid' IN (${t.photoFields.map(lit).join(', ')})
    AND jsonb_typeof(e.value -> 'value') = 'object'`;
  });
  return `SELECT path, blob_key, k FROM (${parts.join('\nUNION ALL\n')}) m ORDER BY k, t, o`;
}
