import type { DataEntry } from './submission-validation.ts';

/** A field as the export sees it: one per field uuid over the project's versions. */
export interface ExportField {
  uuid: string;
  name: string;
  type: string;
}

/** Metadata columns, first in every export (docs/collection.md, "Exports"). */
export const METADATA_COLUMNS = [
  'id',
  'status',
  'collector_id',
  'collector_name',
  'form_version',
  'created_at',
  'updated_at',
  'latitude',
  'longitude',
] as const;

/** The submission columns the export reads (alias `s`), plus the joined collector and version. */
export interface ExportRow {
  id: number | string;
  status: string;
  collector_id: number | null;
  collector_name: string | null;
  form_version: number;
  created_at: Date;
  updated_at: Date;
  latitude: number | null;
  longitude: number | null;
  data: DataEntry[];
}

const GEO_PARTS = ['latitude', 'longitude', 'altitude', 'precision'] as const;

/**
 * The header: metadata columns, then one column per field in form order (a geopoint gives four:
 * `<name>_latitude`, `_longitude`, `_altitude`, `_precision`). A name used by two different
 * fields (different uuids, in different versions) gets `__2`, `__3`... on the later ones.
 */
export function exportHeader(fields: ExportField[]): string[] {
  const used = new Map<string, number>();
  const header: string[] = [...METADATA_COLUMNS];
  for (const f of fields) {
    const n = (used.get(f.name) ?? 0) + 1;
    used.set(f.name, n);
    const name = n === 1 ? f.name : `${f.name}__${n}`;
    if (f.type === 'geopoint') for (const p of GEO_PARTS) header.push(`${name}_${p}`);
    else header.push(name);
  }
  return header;
}

const iso = (d: Date) => d.toISOString();

/**
 * One CSV row, aligned with {@link exportHeader}: dates ISO 8601 UTC; select_multiple values
 * joined by spaces; geopoint split in four; photo as its download URL; missing values empty.
 */
export function exportValues(fields: ExportField[], row: ExportRow): Array<string | number | null> {
  const byUuid = new Map(row.data.map((e) => [e.field_uuid, e.value]));
  const out: Array<string | number | null> = [
    Number(row.id),
    row.status,
    row.collector_id,
    row.collector_name,
    row.form_version,
    iso(row.created_at),
    iso(row.updated_at),
    row.latitude,
    row.longitude,
  ];
  for (const f of fields) {
    const v = byUuid.get(f.uuid);
    if (f.type === 'geopoint') {
      const parts = Array.isArray(v) ? (v as Array<number | null | undefined>) : [];
      for (let i = 0; i < 4; i++) out.push(parts[i] ?? null);
    } else if (v === undefined || v === null) out.push(null);
    else if (f.type === 'select_multiple' && Array.isArray(v)) out.push(v.join(' '));
    else if (f.type === 'photo' && typeof v === 'object') out.push((v as { url?: string }).url ?? null);
    else if (typeof v === 'object') out.push(JSON.stringify(v));
    else out.push(v as string | number);
  }
  return out;
}
