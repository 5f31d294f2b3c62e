import { addFieldError, type FieldErrors } from '@fieldhouse/problem';
import type { FieldDef } from './fields.ts';
import { FIELD_TYPES } from './fields.ts';
import { VALUE_VALIDATORS, isEmptyValue } from './value-validators.ts';
import type { DataEntry, PhotoRef } from './types.ts';
export { type DataEntry, type PhotoRef } from './types.ts';

export interface EntriesResult {
  entries: DataEntry[];
  errors: FieldErrors;
}

export interface EntryOptions {
  /** Check required fields (false for drafts, which may be incomplete). */
  enforceRequired: boolean;
  /** Field uuids whose photo came as an uploaded file (its entry may omit the value). */
  uploadedPhotos?: ReadonlySet<string>;
  /**
   * The photos this submission holds, by id, as the server stored them ({@link PhotoRef}): a
   * photo entry may keep one by sending `{photo_id, ...}`, and its value is then this stored
   * reference, whatever else the client sent with the id (issue 31).
   */
  keptPhotos?: ReadonlyMap<string, PhotoRef>;
}

/** The `photo_id` of a value that names a stored photo (`{photo_id: "...", ...}`), else undefined. */
const photoIdOf = (v: unknown): string | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as PhotoRef).photo_id === 'string'
    ? (v as PhotoRef).photo_id
    : undefined;

const add = (errors: FieldErrors, key: string, message: string) => addFieldError(errors, key, message);

/**
 * Checks every data entry against the field it names (spec 2.1; docs/collection.md,
 * "Submission validation"): the entry shape, an existing `field_uuid`, the field's `type`,
 * the value's format and constraints, no second entry for one field, and every required field
 * present. A photo entry naming one of `opts.keptPhotos` by its `photo_id` keeps it, its value
 * rebuilt from the stored reference (every other member of the client's value ignored); one
 * naming any other photo is a bad value. Errors are keyed by entry: `data.3.value`,
 * `data.1.field_uuid`, `data.2.type`, `data.4` (duplicate); missing required fields under `data`.
 */
export function validateEntries(data: unknown, fields: FieldDef[], opts: EntryOptions): EntriesResult {
  const errors: FieldErrors = {};
  const entries: DataEntry[] = [];
  if (!Array.isArray(data)) {
    add(errors, 'data', 'data must be an array of entries');
    return { entries, errors };
  }
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const seen = new Map<string, number>();
  data.forEach((raw, i) => {
    const at = `data.${i}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      add(errors, at, 'each entry must be an object with field_uuid, type and value');
      return;
    }
    const e = raw as Record<string, unknown>;
    if (typeof e.field_uuid !== 'string') {
      add(errors, `${at}.field_uuid`, 'field_uuid must be a string');
      return;
    }
    const field = byUuid.get(e.field_uuid);
    if (!field) {
      add(errors, `${at}.field_uuid`, `no field of this form version has uuid ${e.field_uuid}`);
      return;
    }
    const first = seen.get(field.uuid);
    if (first !== undefined) {
      add(errors, at, `a second entry for field ${field.name} (first at data.${first})`);
      return;
    }
    seen.set(field.uuid, i);
    if (typeof e.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(e.type)) {
      add(errors, `${at}.type`, `type must be one of ${FIELD_TYPES.join(', ')}`);
      return;
    }
    if (e.type !== field.type) {
      add(errors, `${at}.type`, `field ${field.name} is of type ${field.type}, not ${e.type}`);
      return;
    }
    let value = e.value ?? null;
    let uploaded = field.type === 'photo' && !!opts.uploadedPhotos?.has(field.uuid);
    const keptId = field.type === 'photo' && !uploaded ? photoIdOf(value) : undefined;
    if (keptId !== undefined) {
      // A kept photo is rebuilt from the server's record: the client's url, content_type, size
      // (or anything else) are ignored, never stored (docs/collection.md, "Photos").
      const kept = opts.keptPhotos?.get(keptId);
      if (!kept) {
        add(
          errors,
          `${at}.value`,
          `${field.name} keeps photo ${keptId}, which is not a photo of this submission; send a new photo as base64 or an uploaded file`,
        );
        return;
      }
      value = { ...kept };
      uploaded = true;
    }
    if (value !== null && !uploaded) {
      const problem = VALUE_VALIDATORS[field.type](value, field);
      if (problem) {
        add(errors, `${at}.value`, `${field.name} ${problem}`);
        return;
      }
    }
    if (opts.enforceRequired && field.required && !uploaded && isEmptyValue(value)) {
      add(errors, `${at}.value`, `${field.name} is required`);
      return;
    }
    entries.push({ field_uuid: field.uuid, type: field.type, value });
  });
  if (opts.enforceRequired) {
    for (const f of fields)
      if (f.required && !seen.has(f.uuid) && !opts.uploadedPhotos?.has(f.uuid))
        add(errors, 'data', `${f.name} (field_uuid ${f.uuid}) is required`);
  }
  return { entries, errors };
}

/**
 * Characters of a submission's search text that are indexed. Every word is indexed with its
 * prefixes (migration 007), up to about 48 bytes of search vector per character of 4-byte
 * text, and PostgreSQL refuses a tsvector over 1 MiB: 16,000 characters stay below that
 * whatever the text. Longer answers are stored whole but searched on their beginning.
 */
const SEARCH_TEXT_MAX = 16_000;

/**
 * The text searched by `?search=`: text values and the chosen choices (value and label) of a
 * submission, joined with spaces, cut to {@link SEARCH_TEXT_MAX} characters (code points:
 * never half a surrogate pair).
 */
export function searchTextOf(entries: DataEntry[], fields: FieldDef[]): string {
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const parts: string[] = [];
  for (const e of entries) {
    const f = byUuid.get(e.field_uuid);
    if (!f || e.value === null) continue;
    const labelOf = (v: string) => f.choices?.find((c) => c.value === v)?.label;
    if (f.type === 'text' && typeof e.value === 'string') parts.push(e.value);
    else if (f.type === 'select_one' && typeof e.value === 'string')
      parts.push(e.value, labelOf(e.value) ?? '');
    else if (f.type === 'select_multiple' && Array.isArray(e.value))
      for (const v of e.value as string[]) parts.push(v, labelOf(v) ?? '');
  }
  const text = parts.filter(Boolean).join(' ');
  if (text.length <= SEARCH_TEXT_MAX) return text;
  return [...text].slice(0, SEARCH_TEXT_MAX).join('');
}
