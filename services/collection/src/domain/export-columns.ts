import { NUMBER_TYPES, type FieldType } from './fields.ts';
import type { ExportField, ExportOptions, ExportColumn, MetaColumn } from './types.ts';
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
 * each of its choices. A name used by two different fields (different uuids, in different
 * versions) gets `__2`, `__3`... on the later ones.
 */
export function exportColumns(fields: ExportField[], options: ExportOptions): ExportColumn[] {
  const used = new Map<string, number>();
  const columns: ExportColumn[] = METADATA.map(([column, label, numeric]) => ({
    name: column,
    label,
    source: { kind: 'meta', column },
    numeric,
  }));
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
            label: `${label} (${choice})`,
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
