import type { Field } from '../collection/types.ts';
import { toEntries, type Answer, type Answers, type DataEntry, type Problem } from '../collect/answers.ts';
import { isGeopoint, isPhoto } from './values.ts';

/**
 * A stored answer as the web form's inputs hold it (the reverse of `toEntries`): numbers as
 * text, a geopoint as its four texts, choices as they are; a photo is not an input's value (the
 * stored one is kept unless a new one is chosen), so null.
 */
function answerOf(field: Field, value: unknown): Answer {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'integer':
    case 'decimal':
      return typeof value === 'number' ? String(value) : null;
    case 'select_multiple':
      return Array.isArray(value) ? value.map(String) : null;
    case 'geopoint': {
      if (!isGeopoint(value)) return null;
      const [lat, lon, alt, acc] = value;
      const text = (n: number | undefined) => (n === undefined || n === null ? '' : String(n));
      return { latitude: text(lat), longitude: text(lon), altitude: text(alt), accuracy: text(acc) };
    }
    case 'photo':
      return null;
    default:
      return typeof value === 'string' ? value : null;
  }
}

/** The answers of a stored submission, by field uuid, for the edit form. */
export const answersFor = (fields: readonly Field[], stored: ReadonlyMap<string, unknown>): Answers =>
  Object.fromEntries(fields.map((f) => [f.uuid, answerOf(f, stored.get(f.uuid))]));

/**
 * The data of an edited submission, checked as the web form checks (`toEntries`, the
 * service's rules): answers the reviewer did not touch go back exactly as stored (a geopoint
 * without altitude is not given one, so an edit records only what was changed), and a stored
 * photo with no new one chosen is kept by its `photo_id` (docs/collection.md, "Photos").
 * Returns the entries, or the problems by field uuid.
 */
export function editedEntries(
  fields: readonly Field[],
  answers: Answers,
  touched: ReadonlySet<string>,
  stored: ReadonlyMap<string, unknown>,
): { entries: DataEntry[]; problems: Record<string, Problem> } {
  const keptPhoto = (f: Field) => f.type === 'photo' && !answers[f.uuid] && isPhoto(stored.get(f.uuid));
  const checked = toEntries(
    fields.filter((f) => !keptPhoto(f)),
    answers,
  );
  const byUuid = new Map(checked.entries.map((e) => [e.field_uuid, e]));
  const entries: DataEntry[] = [];
  for (const f of fields) {
    const old = stored.get(f.uuid);
    if (keptPhoto(f)) {
      const photo = old as { photo_id: string | number };
      entries.push({ field_uuid: f.uuid, type: f.type, value: { photo_id: photo.photo_id } });
    } else if (!touched.has(f.uuid) && old !== null && old !== undefined) {
      entries.push({ field_uuid: f.uuid, type: f.type, value: old });
    } else {
      const e = byUuid.get(f.uuid);
      if (e) entries.push(e);
    }
  }
  return { entries, problems: checked.problems };
}
