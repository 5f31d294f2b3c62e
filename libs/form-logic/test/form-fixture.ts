/**
 * A household survey as the API lists its fields (flat, `parent` and `position`), for the form
 * engine tests: skip logic, a repeat per member, sums and counts across it, a repeat count from an
 * answer, a calculation chain, two languages and a cascading select.
 */
import {
  compileForm,
  formTree,
  type CompiledForm,
  type FlatField,
  type FormEntry,
} from '@fieldhouse/form-logic';

const yesNo = [
  { value: 'yes', label: 'Yes', translations: { fr: { label: 'Oui' } } },
  { value: 'no', label: 'No', translations: { fr: { label: 'Non' } } },
];

export const HOUSEHOLD: FlatField[] = [
  {
    name: 'country',
    uuid: 'f-country',
    type: 'select_one',
    position: 0,
    choices: [
      { value: 'fr', label: 'France' },
      { value: 'ke', label: 'Kenya' },
    ],
  },
  {
    name: 'city',
    uuid: 'f-city',
    type: 'select_one',
    position: 1,
    choice_filter: 'country = ${country}',
    choices: [
      { value: 'paris', label: 'Paris', properties: { country: 'fr' } },
      { value: 'lyon', label: 'Lyon', properties: { country: 'fr' } },
      { value: 'nairobi', label: 'Nairobi', properties: { country: 'ke' } },
    ],
  },
  // Children listed before their repeat, positions out of list order: formTree orders them.
  {
    name: 'age',
    uuid: 'f-age',
    type: 'integer',
    parent: 'member',
    position: 2,
    required: true,
    constraint: '. >= 0 and . <= 120',
    constraint_message: 'Age must be between 0 and 120',
    translations: { fr: { constraint_message: "L'âge doit être entre 0 et 120" } },
  },
  { name: 'member_name', uuid: 'f-member-name', type: 'text', parent: 'member', position: 0, required: true },
  {
    name: 'sex',
    uuid: 'f-sex',
    type: 'select_one',
    parent: 'member',
    position: 1,
    choices: [
      { value: 'f', label: 'Female' },
      { value: 'm', label: 'Male' },
    ],
  },
  {
    name: 'pregnancy',
    uuid: 'f-pregnancy',
    type: 'group',
    parent: 'member',
    position: 3,
    relevant: "${sex} = 'f' and ${age} >= 15 and ${age} <= 49",
  },
  {
    name: 'pregnant',
    uuid: 'f-pregnant',
    type: 'select_one',
    parent: 'pregnancy',
    position: 0,
    required: true,
    choices: yesNo,
  },
  {
    name: 'months',
    uuid: 'f-months',
    type: 'integer',
    parent: 'pregnancy',
    position: 1,
    required_if: "${pregnant} = 'yes'",
    required_message: 'How many months?',
    translations: { fr: { required_message: 'Combien de mois ?' } },
  },
  {
    name: 'is_head',
    uuid: 'f-is-head',
    type: 'calculate',
    parent: 'member',
    position: 4,
    calculation: "if(position(..) = 1, 'yes', 'no')",
  },
  {
    name: 'age_months',
    uuid: 'f-age-months',
    type: 'calculate',
    parent: 'member',
    position: 5,
    calculation: '${age} * 12',
  },
  {
    name: 'age_text',
    uuid: 'f-age-text',
    type: 'calculate',
    parent: 'member',
    position: 6,
    calculation: "concat(${member_name}, ': ', ${age_months}, ' months')",
  },
  { name: 'member', uuid: 'f-member', type: 'repeat', position: 2, min_repeats: 1, max_repeats: 10 },
  { name: 'members', uuid: 'f-members', type: 'calculate', position: 3, calculation: 'count(${member})' },
  { name: 'total_age', uuid: 'f-total-age', type: 'calculate', position: 4, calculation: 'sum(${age})' },
  {
    name: 'mean_age',
    uuid: 'f-mean-age',
    type: 'calculate',
    position: 5,
    calculation: 'round(${total_age} div ${members}, 1)',
  },
  { name: 'visits_planned', uuid: 'f-visits-planned', type: 'integer', position: 6 },
  { name: 'visit', uuid: 'f-visit', type: 'repeat', position: 7, repeat_count: '${visits_planned}' },
  { name: 'visit_date', uuid: 'f-visit-date', type: 'date', parent: 'visit', position: 0 },
  { name: 'intro', uuid: 'f-intro', type: 'note', position: 8 },
];

/** The household form compiled (throws if it does not compile: a test failure). */
export function household(): CompiledForm {
  const tree = formTree(HOUSEHOLD);
  if (!tree.ok) throw new Error(JSON.stringify(tree.errors));
  const result = compileForm({ languages: ['en', 'fr'], default_language: 'en', nodes: tree.nodes });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.form;
}

/** One member instance's entries. */
export function member(name: string, sex: string, age: number, extra: FormEntry[] = []): FormEntry[] {
  return [
    { field_uuid: 'f-member-name', type: 'text', value: name },
    { field_uuid: 'f-sex', type: 'select_one', value: sex },
    { field_uuid: 'f-age', type: 'integer', value: age },
    ...extra,
  ];
}

/** A household's entries: country, city, then the member repeat (entry 2). */
export function submission(members: FormEntry[][], more: FormEntry[] = []): FormEntry[] {
  return [
    { field_uuid: 'f-country', type: 'select_one', value: 'fr' },
    { field_uuid: 'f-city', type: 'select_one', value: 'paris' },
    { field_uuid: 'f-member', type: 'repeat', value: members },
    ...more,
  ];
}
