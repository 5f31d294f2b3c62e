import { addFieldError, type FieldErrors } from '@fieldhouse/problem';
import { FIELD_TYPES, type DataEntry, type FieldDef, type PhotoRef, type ValueType } from './types.ts';
import { VALUE_VALIDATORS, isEmptyValue } from './value-validators.ts';
import { filePartOf } from './photo-intake.ts';
export { type DataEntry, type PhotoRef } from './types.ts';

export interface EntriesResult {
  entries: DataEntry[];
  errors: FieldErrors;
}

export interface EntryOptions {
  /** Check required fields (false for drafts, which may be incomplete, and where the form's logic decides). */
  enforceRequired: boolean;
  /**
   * Names of the multipart file parts: a top-level photo field's uuid (its entry may omit the
   * value), or a name a photo entry gives as `{"file": "<name>"}` (at any level).
   */
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
 * The repeat each field's entry belongs in (form model of issue 34: groups have no entry, their
 * members' entries are at the level of the nearest enclosing repeat), by field uuid; null: the
 * top level. A parent chain that loops or names no field ends at the top level.
 */
export function entryLevels(fields: readonly FieldDef[]): Map<string, string | null> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const levels = new Map<string, string | null>();
  for (const f of fields) {
    let level: string | null = null;
    const seen = new Set<string>();
    for (let p = f.parent; p && !seen.has(p); p = byName.get(p)?.parent ?? null) {
      seen.add(p);
      if (byName.get(p)?.type === 'repeat') {
        level = p;
        break;
      }
    }
    levels.set(f.uuid, level);
  }
  return levels;
}

/**
 * Checks every data entry against the field it names (spec 2.1; docs/collection.md,
 * "Submission validation"): the entry shape, an existing `field_uuid`, the field's `type`,
 * the value's format and constraints, no second entry for one field, and every required field
 * present. A photo entry `{"file": "<part name>"}` takes the multipart file of that name (one of
 * `opts.uploadedPhotos`; any other name is a bad value). A photo entry naming one of `opts.keptPhotos` by its `photo_id` keeps it, its value
 * rebuilt from the stored reference (every other member of the client's value ignored); one
 * naming any other photo is a bad value. Errors are keyed by entry: `data.3.value`,
 * `data.1.field_uuid`, `data.2.type`, `data.4` (duplicate); missing required fields under `data`.
 * Form model of issue 34: a `repeat` entry's value is null or an array of instances, each an
 * array of the entries of the fields inside it, checked the same way under
 * `data.5.value.1.2...`; a field belongs at the level of its nearest repeat; `group` and `note`
 * have no entry; a `calculate` entry's value is the service's to compute (any value is taken
 * here). The logic itself (relevance, constraints, required_if...) is domain/form-engine.ts's.
 */
export function validateEntries(data: unknown, fields: FieldDef[], opts: EntryOptions): EntriesResult {
  const errors: FieldErrors = {};
  if (!Array.isArray(data)) {
    add(errors, 'data', 'data must be an array of entries');
    return { entries: [], errors };
  }
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const levels = entryLevels(fields);
  const nested = fields.some((f) => f.type === 'repeat');
  const top = fields.filter((f) => levels.get(f.uuid) === null);

  const level = (list: unknown[], prefix: string, repeat: string | null, topLevel: boolean): DataEntry[] => {
    const entries: DataEntry[] = [];
    const seen = new Map<string, number>();
    list.forEach((raw, i) => {
      const at = `${prefix}.${i}`;
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
      if (field.type === 'group' || field.type === 'note') {
        add(errors, `${at}.field_uuid`, `${field.name} is a ${field.type}, which has no entry`);
        return;
      }
      const fieldLevel = levels.get(field.uuid) ?? null;
      if (nested && fieldLevel !== repeat) {
        add(
          errors,
          `${at}.field_uuid`,
          fieldLevel
            ? `${field.name} belongs in the instances of repeat ${fieldLevel}`
            : `${field.name} belongs at the top level, not in a repeat instance`,
        );
        return;
      }
      const first = seen.get(field.uuid);
      if (first !== undefined) {
        add(errors, at, `a second entry for field ${field.name} (first at ${prefix}.${first})`);
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
      if (field.type === 'repeat') {
        if (value !== null && (!Array.isArray(value) || value.some((x) => !Array.isArray(x)))) {
          add(
            errors,
            `${at}.value`,
            `${field.name} is a repeat: its value is an array of instances, each an array of entries`,
          );
          return;
        }
        value = ((value ?? []) as unknown[][]).map((instance, n) =>
          level(instance, `${at}.value.${n}`, field.name, false),
        );
        entries.push({ field_uuid: field.uuid, type: field.type, value });
        return;
      }
      if (field.type === 'calculate') {
        entries.push({ field_uuid: field.uuid, type: field.type, value });
        return;
      }
      let uploaded = topLevel && field.type === 'photo' && !!opts.uploadedPhotos?.has(field.uuid);
      const part = field.type === 'photo' && !uploaded ? filePartOf(value) : undefined;
      if (part !== undefined) {
        // A multipart file named by the entry (a photo inside a repeat instance, or anywhere).
        if (!opts.uploadedPhotos?.has(part)) {
          add(
            errors,
            `${at}.value`,
            `${field.name} names the file part ${part}, which this request does not have (multipart: one file part per photo)`,
          );
          return;
        }
        value = { file: part };
        uploaded = true;
      }
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
        const problem = VALUE_VALIDATORS[field.type as ValueType](value, field);
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
    if (opts.enforceRequired && topLevel) {
      for (const f of top)
        if (f.required && !seen.has(f.uuid) && !opts.uploadedPhotos?.has(f.uuid))
          add(errors, 'data', `${f.name} (field_uuid ${f.uuid}) is required`);
    }
    return entries;
  };
  const entries = level(data, 'data', null, true);
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
 * submission, those in every instance of its repeats included, joined with spaces, cut to {@link SEARCH_TEXT_MAX} characters (code points:
 * never half a surrogate pair).
 */
export function searchTextOf(entries: DataEntry[], fields: FieldDef[]): string {
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const parts: string[] = [];
  // A repeat's answers are searched too, every instance (issue 34; a group has no entry).
  const all: DataEntry[] = [];
  const walk = (list: DataEntry[]) => {
    for (const e of list) {
      all.push(e);
      if (byUuid.get(e.field_uuid)?.type === 'repeat' && Array.isArray(e.value))
        for (const instance of e.value as unknown[])
          if (Array.isArray(instance)) walk(instance as DataEntry[]);
    }
  };
  walk(entries);
  for (const e of all) {
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
