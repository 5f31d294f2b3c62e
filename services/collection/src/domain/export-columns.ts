import {
  NUMBER_TYPES,
  type ExportColumn,
  type ExportField,
  type ExportOptions,
  type FieldType,
  type MetaColumn,
} from './types.ts';
export {
  EXPORT_HEADERS,
  DEFAULT_EXPORT_OPTIONS,
  type ExportField,
  type ExportOptions,
  type ExportColumn,
} from './types.ts';

/** Metadata columns, first in every export, with their labels. */
const METADATA: Array<[MetaColumn, string, boolean]> = [
  ['id', 'ID', true],
  ['status', 'Status', false],
  ['collector_id', 'Collector ID', true],
  ['collector_name', 'Collector', false],
  ['form_version', 'Form version', true],
  ['created_at', 'Created at', false],
  ['updated_at', 'Updated at', false],
  ['latitude', 'Latitude', true],
  ['longitude', 'Longitude', true],
];

const GEO_PARTS = ['latitude', 'longitude', 'altitude', 'precision'] as const;

/**
 * The columns of an export (docs/collection.md, "Exports"): metadata columns, then one column
 * per field in form order. A geopoint gives four (`<name>_latitude`, `_longitude`, `_altitude`,
 * `_precision`); with `choice_columns`, a select_multiple is followed by `<name>/<choice>` for
 * each of its choices (labelled `<label> (<choice>)`, the choice's label in the export's `lang`
 * when one is asked for). A name used by two different fields (different uuids, in different
 * versions) gets `__2`, `__3`... on the later ones.
 */
export function exportColumns(fields: ExportField[], options: ExportOptions): ExportColumn[] {
  const columns: ExportColumn[] = METADATA.map(([column, label, numeric]) => ({
    name: column,
    label,
    source: { kind: 'meta', column },
    numeric,
  }));
  return fieldColumns(columns, fields, options);
}

/** Types that are not answered in a column of their own (issue 34: containers and notes). */
const NO_COLUMN = ['group', 'repeat', 'note'];

/** The key columns first in a repeat's table (docs/collection.md, "Exports"). */
const KEYS: Array<['submission_id' | 'parent_key' | 'key', string, boolean]> = [
  ['submission_id', 'Submission ID', true],
  ['parent_key', 'Parent key', false],
  ['key', 'Key', false],
];

/** One table of an export: the submissions' own, or one repeat's instances. */
export interface ExportTable {
  /** null for the submissions' table; else the repeat's field name (its file or sheet name). */
  name: string | null;
  /** The repeats from the top down to this table's (empty for the submissions' table). */
  repeats: Array<{ uuid: string; name: string }>;
  columns: ExportColumn[];
}

/**
 * The tables of an export (docs/collection.md, "Exports"), as ODK Central and KoboToolbox
 * export repeats: the submissions' table ({@link exportColumns} over the fields outside any
 * repeat; groups, repeats and notes have no column), then one table per repeat, in form order,
 * whose rows are its instances: `submission_id`, `parent_key` (the key of the instance it is
 * in, or the submission id for a top-level repeat) and `key` (`<submission id>/<repeat>[<n>]`,
 * nested repeats appending `/<repeat>[<n>]`: Central's KEY and PARENT_KEY), then a column per
 * field of that repeat (not of the repeats inside it), named as in the submissions' table. A
 * flat form has one table, exactly today's.
 */
export function exportTables(fields: ExportField[], options: ExportOptions): ExportTable[] {
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const inTable = (repeats: string[]) =>
    fields.filter(
      (f) =>
        !NO_COLUMN.includes(f.type) &&
        f.repeats.length === repeats.length &&
        f.repeats.every((r, i) => r === repeats[i]),
    );
  const tables: ExportTable[] = [{ name: null, repeats: [], columns: exportColumns(inTable([]), options) }];
  for (const r of fields) {
    if (r.type !== 'repeat') continue;
    const path = [...r.repeats, r.uuid];
    const keys: ExportColumn[] = KEYS.map(([part, label, numeric]) => ({
      name: part,
      label,
      source: { kind: 'instance', part },
      numeric,
    }));
    tables.push({
      name: r.name,
      repeats: path.map((uuid) => ({ uuid, name: byUuid.get(uuid)?.name ?? uuid })),
      columns: fieldColumns(keys, inTable(path), options),
    });
  }
  return tables;
}

/** `columns` followed by the columns of `fields` (see {@link exportColumns}). */
function fieldColumns(
  columns: ExportColumn[],
  fields: ExportField[],
  options: ExportOptions,
): ExportColumn[] {
  const used = new Map<string, number>();
  for (const f of fields) {
    const n = (used.get(f.name) ?? 0) + 1;
    used.set(f.name, n);
    const name = n === 1 ? f.name : `${f.name}__${n}`;
    const { uuid, label } = f;
    if (f.type === 'geopoint')
      GEO_PARTS.forEach((part, index) =>
        columns.push({
          name: `${name}_${part}`,
          label: `${label} (${part})`,
          source: { kind: 'geo', uuid, index },
          numeric: true,
        }),
      );
    else if (f.type === 'select_multiple') {
      columns.push({ name, label, source: { kind: 'joined', uuid }, numeric: false });
      if (options.choice_columns)
        for (const choice of f.choices)
          columns.push({
            name: `${name}/${choice}`,
            label: `${label} (${f.choiceLabels?.[choice] ?? choice})`,
            source: { kind: 'choice', uuid, choice },
            numeric: true,
          });
    } else if (f.type === 'photo')
      columns.push({ name, label, source: { kind: 'photo', uuid }, numeric: false });
    else
      columns.push({
        name,
        label,
        source: { kind: 'value', uuid },
        numeric: NUMBER_TYPES.includes(f.type as FieldType),
      });
  }
  return columns;
}

/** The header row of `columns` for the requested header option. */
export const exportHeader = (columns: ExportColumn[], options: ExportOptions): string[] =>
  columns.map((c) => (options.header === 'labels' ? c.label : c.name));

/**
 * A row read back as text (one entry per column, null when empty) with the numeric columns as
 * numbers, for the typed formats (xlsx cells, GeoJSON properties). Text that is not a finite
 * number stays text.
 */
export function typedValues(
  columns: ExportColumn[],
  row: Array<string | null>,
): Array<string | number | null> {
  return row.map((v, i) => {
    if (v === null || !columns[i]!.numeric) return v;
    const n = Number(v);
    return v !== '' && Number.isFinite(n) ? n : v;
  });
}
