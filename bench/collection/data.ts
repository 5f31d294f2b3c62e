/**
 * Data generator of the collection bench: the 20-field form (every type but photo), one
 * submission body for it, and the SQL that bulk-loads N submissions into one project.
 */
import type { Knex } from 'knex';

const choices = (...v: string[]) => v.map((x) => ({ value: x, label: x[0]!.toUpperCase() + x.slice(1) }));

/** 20 fields: every type of spec 2.1 except photo. */
export const benchFields = [
  { name: 'respondent', label: 'Respondent', type: 'text', required: true, constraints: { max_length: 80 } },
  { name: 'village', label: 'Village', type: 'text' },
  { name: 'notes', label: 'Notes', type: 'text', constraints: { max_length: 500 } },
  { name: 'code', label: 'Code', type: 'text', constraints: { pattern: '[A-Z]{2}-\\d{4}' } },
  { name: 'age', label: 'Age', type: 'integer', required: true, constraints: { min: 0, max: 120 } },
  { name: 'household', label: 'Household size', type: 'integer', constraints: { min: 1, max: 50 } },
  { name: 'income', label: 'Income', type: 'decimal', constraints: { min: 0 } },
  { name: 'weight', label: 'Weight', type: 'decimal' },
  { name: 'visit_date', label: 'Visit date', type: 'date', required: true },
  { name: 'birth_date', label: 'Birth date', type: 'date' },
  { name: 'start_time', label: 'Start', type: 'time' },
  { name: 'end_time', label: 'End', type: 'time' },
  { name: 'gender', label: 'Gender', type: 'select_one', choices: choices('female', 'male', 'other') },
  {
    name: 'water',
    label: 'Water source',
    type: 'select_one',
    choices: choices('well', 'river', 'tap', 'rain'),
  },
  {
    name: 'crops',
    label: 'Crops',
    type: 'select_multiple',
    choices: choices('maize', 'rice', 'cassava', 'beans'),
  },
  { name: 'animals', label: 'Animals', type: 'select_multiple', choices: choices('goat', 'cow', 'chicken') },
  { name: 'home', label: 'Home', type: 'geopoint' },
  { name: 'well', label: 'Well', type: 'geopoint' },
  { name: 'consent_given', label: 'Consent', type: 'select_one', choices: choices('yes', 'no') },
  { name: 'comments', label: 'Comments', type: 'text' },
] as const;

/**
 * The same 20 fields with form logic (issue 34, "Quality bars": a 20-field form with logic
 * against the same form without it, in one run): 13 expressions — relevance, constraints, a
 * required_if, selected(), count-selected(), regex(), string-length(), today() — that the
 * bench's submission satisfies, so every one is evaluated on each submission.
 */
const LOGIC: Record<string, Record<string, string>> = {
  village: { constraint: 'string-length(.) > 1' },
  notes: { required_if: 'string-length(${respondent}) > 200' },
  code: { constraint: "regex(., '^[A-Z]{2}-[0-9]{4}$')" },
  age: { constraint: '. >= 0 and . <= 120' },
  household: { relevant: '${age} >= 15', constraint: '. >= 1 and . <= ${age}' },
  income: { relevant: '${household} > 0' },
  birth_date: { constraint: '. < today()' },
  gender: { relevant: '${age} > 0' },
  crops: { relevant: "selected(${water}, 'well') or ${household} > 1" },
  animals: { constraint: 'count-selected(.) <= 3' },
  well: { relevant: "${water} = 'well'" },
  comments: { relevant: "${consent_given} = 'yes'" },
};
export const benchLogicFields = benchFields.map((f) => ({ ...f, ...(LOGIC[f.name] ?? {}) }));

const values: Record<string, unknown> = {
  respondent: 'Amina Diallo',
  village: 'Kolda',
  notes: 'Household visited in the morning; all members present.',
  code: 'KD-0042',
  age: 34,
  household: 6,
  income: 1250.5,
  weight: 61.2,
  visit_date: '2025-03-14',
  birth_date: '1991-07-02',
  start_time: '09:15:00',
  end_time: '09:42:30',
  gender: 'female',
  water: 'well',
  crops: ['maize', 'beans'],
  animals: ['goat', 'chicken'],
  home: [12.88, -14.95, 40, 5],
  well: [12.881, -14.951, 38, 8],
  consent_given: 'yes',
  comments: 'none',
};

/** A valid submission body for the form, given its version id and field uuids by name. */
export function submissionBody(versionId: number, uuids: Record<string, string>) {
  return {
    form_version_id: versionId,
    latitude: 12.88,
    longitude: -14.95,
    altitude: 40,
    precision: 5,
    data: benchFields.map((f) => ({ field_uuid: uuids[f.name], type: f.type, value: values[f.name] })),
  };
}

const WORDS = [
  'amina',
  'moussa',
  'fatou',
  'ibrahima',
  'awa',
  'ousmane',
  'mariama',
  'cheikh',
  'aissatou',
  'lamine',
];
const VILLAGES = ['kolda', 'sedhiou', 'ziguinchor', 'tambacounda', 'kedougou', 'matam', 'louga', 'fatick'];

/**
 * Inserts `rows` submissions into `projectId` with INSERT ... SELECT generate_series, spread
 * over the last 365 days, 50 collectors, statuses 60% submitted / 20% reviewed / 10% rejected /
 * 5% requires_correction / 5% draft, and searchable text (a first name and a village; the tag
 * `rare<k>` on one row in 10,000). The counters follow by themselves: their trigger runs once
 * per statement (migration 008), one upsert per status and day of each chunk. Then VACUUM ANALYZE.
 */
export async function bulkLoad(
  db: Knex,
  projectId: number,
  versionId: number,
  rows: number,
  template: unknown[],
) {
  const chunk = 200_000;
  for (let start = 0; start < rows; start += chunk) {
    const end = Math.min(rows, start + chunk) - 1;
    await db.raw(
      `INSERT INTO submissions (project_id, form_version_id, collector_id, status, latitude, longitude, altitude, precision,
                                data, search_text, created_at, updated_at, submitted_at)
       SELECT ?, ?, 1000 + (g % 50),
              CASE WHEN g % 20 < 12 THEN 'submitted' WHEN g % 20 < 16 THEN 'reviewed' WHEN g % 20 < 18 THEN 'rejected'
                   WHEN g % 20 = 18 THEN 'requires_correction' ELSE 'draft' END,
              12 + (g % 100) / 100.0, -15 + (g % 97) / 100.0, 40, 5,
              ?::jsonb,
              (?::text[])[1 + g % 10] || ' ' || (?::text[])[1 + (g / 10) % 8] || CASE WHEN g % 10000 = 7 THEN ' rare' || (g / 10000) ELSE '' END,
              now() - ((g::double precision / ?) * interval '365 days'),
              now(), now()
       FROM generate_series(?::int, ?::int) AS g`,
      [projectId, versionId, JSON.stringify(template), WORDS, VILLAGES, rows, start, end],
    );
  }
  await db.raw('VACUUM ANALYZE submissions');
  await db.raw('VACUUM ANALYZE submission_counts');
}
