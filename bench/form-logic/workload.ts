/**
 * The bench's form: 12 top-level fields and 3 repeats (`r1`..`r3`) of 21 fields, 10 instances
 * each (75 questions, 642 answers), and 100 expressions of the kinds XLSForms use (relevant,
 * constraint with `.`, calculation, aggregates over another repeat, dates, selects, text),
 * each evaluated in each of the 30 repeat instances.
 */
export const REPEATS = 3;
export const INSTANCES = 10;

export const TOP_FIELDS: Record<string, string> = {
  consent: 'yes',
  hh_size: '8',
  hh_head_age: '61',
  village: 'Kibera',
  visit_date: '2024-03-15',
  enumerator: 'Aisha',
  gps_ok: '1',
  total_income: '4200',
  water_source: 'tap',
  notes: '',
  region: 'nairobi',
  district: 'west',
};

const REPEAT_FIELDS = ['age', 'sex', 'name', 'phone', 'dob', 'choices'];
for (const letter of ['a', 'b', 'c']) for (let i = 1; i <= 5; i++) REPEAT_FIELDS.push(`${letter}${i}`);
export { REPEAT_FIELDS };

/** The answer of field `field` in instance `instance` (0-based) of repeat `repeat` (1-based). */
export function repeatAnswer(repeat: number, instance: number, field: string): string {
  const k = repeat * 31 + instance * 7;
  switch (field) {
    case 'age':
      return String((k * 13) % 90);
    case 'sex':
      return k % 2 ? 'f' : 'm';
    case 'name':
      return ['Amina', 'Baraka', 'Chausiku', 'Daudi', 'Esther'][k % 5]!;
    case 'phone':
      return k % 3 ? `07${String(10000000 + k * 7919).slice(0, 8)}` : '';
    case 'dob':
      return `19${50 + (k % 49)}-${String(1 + (k % 12)).padStart(2, '0')}-${String(1 + (k % 28)).padStart(2, '0')}`;
    case 'choices':
      return ['water soap', 'soap', 'water bucket soap', '', 'net'][k % 5]!;
    default:
      return k % 4 === 0 ? '' : String((k * Number(field.slice(1))) % 97);
  }
}

/**
 * 20 templates × 5 variants. `{R}` is the repeat being evaluated, `{O}` another repeat, `{i}` the
 * variant (1..5) choosing which of a1..a5, b1..b5, c1..c5 is read. `.` is the field `age`.
 */
const TEMPLATES = [
  "${{R}_age} >= 15 and ${{R}_age} <= 49 and ${{R}_sex} = 'f'",
  '. >= 0 and . <= 120 and . != {i}0',
  '${{R}_a{i}} + ${{R}_b{i}} * 2',
  'if(${{R}_a{i}} > ${{R}_b{i}}, ${{R}_a{i}} - ${{R}_b{i}}, 0)',
  "selected(${{R}_choices}, 'water') or selected(${{R}_choices}, 'soap')",
  'count-selected(${{R}_choices}) <= {i}',
  "concat(${{R}_name}, ' (', ${{R}_age}, ') ', ${{R}_c{i}})",
  'string-length(${{R}_name}) > {i} and string-length(${{R}_name}) <= 40',
  "regex(${{R}_phone}, '^07[0-9]{8}$') or ${{R}_phone} = ''",
  'int((today() - date(${{R}_dob})) div 365.25) >= {i}',
  "format-date(${{R}_dob}, '%Y-%m') != ''",
  'coalesce(${{R}_b{i}}, 0) + coalesce(${{R}_c{i}}, 0)',
  '${{R}_age} < ${hh_head_age} - {i}',
  'position(..) <= ${hh_size}',
  'round(${{R}_a{i}} div (${{R}_b{i}} + 1), 2)',
  "not(${{R}_sex} = 'm') and ${consent} = 'yes'",
  'sum(${{O}_a{i}}) > count(${{O}_a{i}})',
  "${{R}_c{i}} != '' and number(${{R}_c{i}}) mod 2 = 0",
  "contains(${{R}_name}, 'a') or starts-with(${{R}_name}, 'B')",
  'max(${{R}_a{i}}, ${{R}_b{i}}, ${{R}_c{i}}) - min(${{R}_a{i}}, ${{R}_b{i}}, ${{R}_c{i}})',
];

export interface BenchExpression {
  /** The expression as the form's author writes it, for repeat `repeat`. */
  source: string;
  /** The same in ODK XForms XPath, with `.` the field `age` of the repeat instance. */
  xpath: string;
}

/** The 100 expressions as written for repeat `repeat` (1-based). */
export function expressionsFor(repeat: number): BenchExpression[] {
  const other = (repeat % REPEATS) + 1;
  const out: BenchExpression[] = [];
  for (let i = 1; i <= 5; i++) {
    for (const template of TEMPLATES) {
      const source = template
        .replaceAll('{R}', `r${repeat}`)
        .replaceAll('{O}', `r${other}`)
        .replaceAll('{i}', String(i));
      const xpath = source.replace(/\$\{(\w+)\}/g, (_, name: string) => {
        const m = /^r(\d)_(\w+)$/.exec(name);
        if (!m) return `/data/${name}`;
        return Number(m[1]) === repeat ? `../${m[2]}` : `/data/r${m[1]}/${m[2]}`;
      });
      out.push({ source, xpath });
    }
  }
  return out;
}

/** All field names of the form, for compile-time reference checks. */
export function fieldNames(): string[] {
  const names = Object.keys(TOP_FIELDS);
  for (let r = 1; r <= REPEATS; r++) for (const f of REPEAT_FIELDS) names.push(`r${r}_${f}`);
  return names;
}

/** The submission as an XForms instance document, for ODK's evaluator. */
export function instanceXml(): string {
  const parts = ['<data>'];
  for (const [name, value] of Object.entries(TOP_FIELDS)) parts.push(`<${name}>${value}</${name}>`);
  for (let r = 1; r <= REPEATS; r++) {
    for (let i = 0; i < INSTANCES; i++) {
      parts.push(`<r${r}>`);
      for (const f of REPEAT_FIELDS) parts.push(`<${f}>${repeatAnswer(r, i, f)}</${f}>`);
      parts.push(`</r${r}>`);
    }
  }
  parts.push('</data>');
  return parts.join('');
}
