import { NUMBER_TYPES, type FieldType } from './fields.ts';

/** A field as the export sees it: one per field uuid over the project's published versions. */
export interface ExportField {
  uuid: string;
  name: string;
  label: string;
  type: string;
  /** Choice values of a select field, in form order (the newest version's, then older ones). */
  choices: string[];
}

/** Header rows an export may have: field names (default) or field labels. */
export const EXPORT_HEADERS = ['names', 'labels'] as const;

/** Export options of the request (docs/collection.md, "Exports"). */
export interface ExportOptions {
  /** Header row: field names (default) or field labels. */
  header: (typeof EXPORT_HEADERS)[number];
  /** Adds one 0/1 column per choice after each select_multiple column. */
  choice_columns: boolean;
  /**
   * CSV only: text cells a spreadsheet would run as a formula get a leading `'`
   * (domain/formula-escaping.ts); `false` writes every value exactly as stored.
   */
  formula_escaping: boolean;
}

export const DEFAULT_EXPORT_OPTIONS: ExportOptions = {
  header: 'names',
  choice_columns: false,
  formula_escaping: true,
};

/**
 * What one column of an export holds:
 * - `meta`: a submission column (`id`, `status`, `collector_id`, `collector_name`,
 *   `form_version`, `created_at`, `updated_at`, `latitude`, `longitude`);
 * - `value`: the field's value as text (numbers as stored, dates and times as sent);
 * - `joined`: a select_multiple's values separated by spaces;
 * - `choice`: 1 when a select_multiple holds `choice`, 0 when it does not, empty when unanswered;
 * - `geo`: part `index` of a geopoint (0 latitude, 1 longitude, 2 altitude, 3 precision);
 * - `photo`: a photo's absolute download URL, or its path inside a media zip ({@link PhotoCells}).
 */
export type ColumnSource =
  | { kind: 'meta'; column: MetaColumn }
  | { kind: 'value' | 'joined' | 'photo'; uuid: string }
  | { kind: 'choice'; uuid: string; choice: string }
  | { kind: 'geo'; uuid: string; index: number };

/**
 * What a photo cell holds (docs/collection.md, "Exports"):
 * - `url`: the photo's API URL made absolute with `base` (the deployment's `PUBLIC_URL`):
 *   `<base>/api/v1/photos/<id>`, which asks whoever follows it to sign in and may read the
 *   submission (CSV, xlsx, GeoJSON);
 * - `media`: the photo's file inside the zip, `media/<photo id>.<ext>` (the media zip's CSV).
 */
export type PhotoCells = { kind: 'url'; base: string } | { kind: 'media' };

/** One export column: its header, its label and where its values come from. */
export interface ExportColumn {
  /** Machine header: the field name, with suffixes for geopoint parts and choices. */
  name: string;
  /** Human header: the field label, with the same suffixes in parentheses. */
  label: string;
  source: ColumnSource;
  /** Whether xlsx and GeoJSON write the value as a number (CSV is text anyway). */
  numeric: boolean;
}

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
export type MetaColumn =
  | 'id'
  | 'status'
  | 'collector_id'
  | 'collector_name'
  | 'form_version'
  | 'created_at'
  | 'updated_at'
  | 'latitude'
  | 'longitude';

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
