import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const LOCALES = join(import.meta.dirname, '..', '..', 'console', 'src', 'locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every leaf of a locale file as `a.b.c` → text. */
function leaves(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, value);
  return out;
}

const read = (lang: string, file: string) =>
  leaves(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')) as unknown);
/** The `{{name}}` placeholders of a text, sorted. */
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe("the console's translations (English and French)", () => {
  const files = readdirSync(join(LOCALES, 'en')).filter((f) => f.endsWith('.json'));

  it('has the same namespaces in both languages', () => {
    expect(files.length).to.be.greaterThan(0);
    expect(
      readdirSync(join(LOCALES, 'fr'))
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).to.deep.equal([...files].sort());
  });

  it('translates every English text into French, with the same placeholders and plural forms', () => {
    const problems: string[] = [];
    for (const file of files) {
      const en = read('en', file);
      const fr = read('fr', file);
      // A plural group is a key with an `_other` form (`select_one` alone is a field type's name).
      const plurals = new Set(
        [...en.keys(), ...fr.keys()].filter((k) => k.endsWith('_other')).map((k) => k.replace(PLURAL, '')),
      );
      const isPlural = (k: string) => PLURAL.test(k) && plurals.has(k.replace(PLURAL, ''));
      const base = (k: string) => (isPlural(k) ? k.replace(PLURAL, '') : k);
      const enBases = new Set([...en.keys()].map(base));
      const frBases = new Set([...fr.keys()].map(base));
      for (const k of enBases) if (!frBases.has(k)) problems.push(`${file}: ${k} has no French text`);
      for (const k of frBases) if (!enBases.has(k)) problems.push(`${file}: ${k} is only in French`);
      for (const [lang, texts] of [
        ['en', en],
        ['fr', fr],
      ] as const) {
        for (const [k, v] of texts) {
          if (typeof v !== 'string' || !v.trim()) problems.push(`${file}: ${lang} ${k} is not a text`);
          // i18next picks `_one` or `_other` in both languages (French `_many` falls back to `_other`).
          if (isPlural(k))
            for (const form of ['one', 'other'])
              if (!texts.has(k.replace(PLURAL, `_${form}`)))
                problems.push(`${file}: ${lang} ${k} lacks _${form}`);
        }
      }
      for (const [k, v] of en) {
        const other = fr.get(k) ?? (isPlural(k) ? fr.get(k.replace(PLURAL, '_other')) : undefined);
        if (typeof v === 'string' && typeof other === 'string') {
          const a = placeholders(v).filter((p) => p !== 'count');
          const b = placeholders(other).filter((p) => p !== 'count');
          if (JSON.stringify([...new Set(a)]) !== JSON.stringify([...new Set(b)]))
            problems.push(`${file}: ${k} placeholders en ${a.join(',')} / fr ${b.join(',')}`);
        }
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
