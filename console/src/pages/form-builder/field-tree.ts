import type { ModelField } from './field-form.ts';

/** The fields whose parent is `parent` ('' for the top level), ordered by position, then id. */
export function childrenOf(fields: readonly ModelField[], parent: string): ModelField[] {
  return fields
    .filter((f) => (f.parent ?? '') === parent)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
}

/** The names of `name` and every field inside it (a group's or repeat's descendants). */
export function subtreeNames(fields: readonly ModelField[], name: string): Set<string> {
  const out = new Set([name]);
  for (let grown = true; grown;) {
    grown = false;
    for (const f of fields)
      if (f.parent && out.has(f.parent) && !out.has(f.name)) {
        out.add(f.name);
        grown = true;
      }
  }
  return out;
}

/**
 * The languages (of `languages`, the version's non-default ones) in which `f` lacks a text it has
 * in the default language: its label, hint, messages or a choice's label.
 */
export function untranslated(f: ModelField, languages: readonly string[]): string[] {
  return languages.filter((lang) => {
    const tr = f.translations?.[lang] ?? {};
    if (f.label && !tr.label) return true;
    if (f.hint && !tr.hint) return true;
    if (f.constraint_message && !tr.constraint_message) return true;
    if (f.required_message && !tr.required_message) return true;
    return (f.choices ?? []).some((c) => c.label && !c.translations?.[lang]?.label);
  });
}
