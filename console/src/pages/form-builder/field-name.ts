/** The most characters a field name may have (the service's rule: `^[A-Za-z_][A-Za-z0-9_]{0,99}$`). */
const MAX_NAME = 100;

/**
 * The field name a label suggests, valid for the collection service's rule (letters, digits
 * and `_`, not starting with a digit, at most 100 characters; services/collection/src/domain/
 * field-definition.ts) and not among `taken` (the other fields of the version, since a version's
 * names are unique):
 * - accents are folded (Unicode NFKD, combining marks dropped: "Âge" → "age"), `ß` → `ss`,
 *   `æ`/`œ` → `ae`/`oe`, then lowercased;
 * - every run of other characters (spaces, punctuation, letters outside ASCII) becomes one `_`,
 *   with none at either end;
 * - a name that would start with a digit gets `q_` in front ("1st visit" → `q_1st_visit`);
 * - a name already taken gets `_2`, `_3`... (cut to stay within 100 characters).
 * An empty string when the label has no ASCII letter or digit at all (the user names it).
 */
export function fieldNameFromLabel(label: string, taken: Iterable<string> = []): string {
  let name = label
    .replace(/ß/g, 'ss')
    .replace(/æ/gi, 'ae')
    .replace(/œ/gi, 'oe')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) return '';
  if (/^[0-9]/.test(name)) name = `q_${name}`;
  name = name.slice(0, MAX_NAME).replace(/_+$/, '');
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, MAX_NAME - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
