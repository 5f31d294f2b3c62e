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
 * (a field kept across versions keeps its uuid): the export's fields in form order. A select
 * field's choices are those of every version, the newest version's first. `latest` counts the
 * fields of the newest published version, which come first.
 */
export async function exportFields(
  db: Knex,
  projectId: number,
): Promise<{ fields: ExportField[]; latest: number }> {
  const rows = (await db('fields as f')
    .join('form_versions as v', 'v.id', 'f.version_id')
    .where({ 'v.project_id': projectId, 'v.status': 'published' })
    .orderBy([
      { column: 'v.number', order: 'desc' },
      { column: 'f.position', order: 'asc' },
      { column: 'f.id', order: 'asc' },
    ])
    .select('f.uuid', 'f.name', 'f.label', 'f.type', 'f.choices', 'v.number')) as Array<
    Omit<ExportField, 'choices'> & { choices: Array<{ value: string }> | null; number: number }
  >;
  const byUuid = new Map<string, ExportField>();
  let latest = 0;
  for (const r of rows) {
    if (r.number === rows[0]!.number) latest++;
    const seen = byUuid.get(r.uuid);
    const choices = (r.choices ?? []).map((c) => c.value);
    if (seen) seen.choices.push(...choices.filter((c) => !seen.choices.includes(c)));
    else byUuid.set(r.uuid, { uuid: r.uuid, name: r.name, label: r.label, type: r.type, choices });
  }
  return { fields: [...byUuid.values()], latest };
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

/** SQL text of one column (`v` is the field's JSONB value, `s` the submission). */
function columnSql(source: ColumnSource, valueOf: (uuid: string) => string, photos: PhotoCells): string {
  switch (source.kind) {
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
const isText = (c: ExportColumn) => (c.source.kind === 'meta' ? !c.numeric : c.source.kind !== 'choice');

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
  { neutraliseFormulas = false, photos }: { neutraliseFormulas?: boolean; photos: PhotoCells },
): string {
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
  const values = columns.map((c) => columnSql(c.source, valueOf, photos));
  const select = neutraliseFormulas
    ? columns.map((c, i) => (isText(c) ? neutralisedSql(`c.c${i}`) : `c.c${i}`)).join(',\n')
    : values.join(',\n');
  const computed = neutraliseFormulas
    ? `
  CROSS JOIN LATERAL (SELECT ${values.map((v, i) => `${v} AS c${i}`).join(',\n')} OFFSET 0) c`
    : '';
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
 * in the export (1 for its first row), for the job's progress.
 */
export function exportMediaSql(db: Knex, job: ExportJobRow, photoFields: string[]): string {
  if (!photoFields.length)
    return 'SELECT NULL::text AS path, NULL::text AS blob_key, 0::bigint AS k WHERE false';
  return `SELECT ${mediaPathSql("e.value -> 'value'")} AS path, p.blob_key, s.k
  FROM (SELECT f.*, row_number() OVER (ORDER BY f.created_at, f.id) AS k
        FROM (${filteredSubmissions(db, job).toQuery()}) f) s
  CROSS JOIN LATERAL jsonb_array_elements(s.data || '[]'::jsonb) WITH ORDINALITY AS e(value, n)
  JOIN photos p ON p.submission_id = s.id AND p.id::text = e.value -> 'value' ->> 'photo_id'
  WHERE e.value ->> 'field_uuid' IN (${photoFields.map(lit).join(', ')})
    AND jsonb_typeof(e.value -> 'value') = 'object'
  ORDER BY s.k, e.n`;
}
