import { expect } from 'chai';
import type { FormEntry, ValidateOptions } from '@fieldhouse/form-logic';
import { household, member, submission } from './form-fixture.ts';

const form = household();
const pregnant = (answer: string, months?: number): FormEntry[] => [
  { field_uuid: 'f-pregnant', type: 'select_one', value: answer },
  ...(months === undefined ? [] : [{ field_uuid: 'f-months', type: 'integer', value: months }]),
];
const entry = (uuid: string, type: string, value: unknown): FormEntry => ({ field_uuid: uuid, type, value });

interface Case {
  title: string;
  entries: FormEntry[];
  options?: ValidateOptions;
  errors: Record<string, string[]>;
}

const NOT_RELEVANT =
  'not relevant: this question does not apply to the answers given, so it must not be answered';

const cases: Case[] = [
  {
    title: 'accepts a complete household',
    entries: submission([member('Ana', 'f', 30, pregnant('no')), member('Ben', 'm', 32)]),
    errors: {},
  },
  {
    title: 'asks the pregnancy questions of a woman of 15 to 49 (required there)',
    entries: submission([member('Ana', 'f', 30)]),
    errors: { 'data.2.value.0.pregnant': ['This answer is required'] },
  },
  {
    title: 'does not ask them of a woman of 50 (skip logic)',
    entries: submission([member('Ana', 'f', 50)]),
    errors: {},
  },
  {
    title: 'refuses an answer to a question that is not relevant (a man)',
    entries: submission([member('Ben', 'm', 30, pregnant('no'))]),
    errors: { 'data.2.value.0.3.value': [NOT_RELEVANT] },
  },
  {
    title: 'applies the nearest-instance rule: each member is judged on its own sex and age',
    entries: submission([
      member('Ben', 'm', 30),
      member('Ana', 'f', 25, pregnant('no')),
      member('Eve', 'f', 14),
    ]),
    errors: {},
  },
  {
    title: 'requires months only when pregnant (required_if) with its message',
    entries: submission([member('Ana', 'f', 30, pregnant('yes'))]),
    errors: { 'data.2.value.0.months': ['How many months?'] },
  },
  {
    title: 'gives the required_if message in French',
    entries: submission([member('Ana', 'f', 30, pregnant('yes'))]),
    options: { language: 'fr' },
    errors: { 'data.2.value.0.months': ['Combien de mois ?'] },
  },
  {
    title: 'reports a required answer sent empty under its entry',
    entries: submission([member('Ana', 'f', 30, [...pregnant('yes'), entry('f-months', 'integer', null)])]),
    errors: { 'data.2.value.0.4.value': ['How many months?'] },
  },
  {
    title: 'gives the constraint message in the default language',
    entries: submission([member('Old', 'm', 130)]),
    errors: { 'data.2.value.0.2.value': ['Age must be between 0 and 120'] },
  },
  {
    title: 'gives the constraint message in French',
    entries: submission([member('Old', 'm', 130)]),
    options: { language: 'fr' },
    errors: { 'data.2.value.0.2.value': ["L'âge doit être entre 0 et 120"] },
  },
  {
    title: 'gives the French message for a regional French (fr-CA)',
    entries: submission([member('Old', 'm', 130)]),
    options: { language: 'fr-CA' },
    errors: { 'data.2.value.0.2.value': ["L'âge doit être entre 0 et 120"] },
  },
  {
    title: 'falls back to the default language for a language the form lacks',
    entries: submission([member('Old', 'm', 130)]),
    options: { language: 'de' },
    errors: { 'data.2.value.0.2.value': ['Age must be between 0 and 120'] },
  },
  {
    title: 'refuses a city of another country (choice_filter)',
    entries: [
      entry('f-country', 'select_one', 'ke'),
      entry('f-city', 'select_one', 'paris'),
      entry('f-member', 'repeat', [member('Ben', 'm', 3)]),
    ],
    errors: { 'data.1.value': ['Value not allowed: this choice is not offered for the answers given'] },
  },
  {
    title: 'refuses fewer member instances than min_repeats',
    entries: submission([]),
    errors: { 'data.2.value': ['at least 1 instance needed, not 0'] },
  },
  {
    title: 'refuses more member instances than max_repeats',
    entries: submission(Array.from({ length: 11 }, (_, i) => member(`M${i}`, 'm', 60))),
    errors: { 'data.2.value': ['at most 10 instances allowed, not 11'] },
  },
  {
    title: 'refuses a visit count other than the repeat_count expression gives',
    entries: submission(
      [member('Ben', 'm', 3)],
      [
        entry('f-visits-planned', 'integer', 2),
        entry('f-visit', 'repeat', [[entry('f-visit-date', 'date', '2026-01-01')]]),
      ],
    ),
    errors: { 'data.4.value': ['2 instances expected (repeat_count), not 1'] },
  },
  {
    title: 'reports a missing repeat by its name',
    entries: submission([member('Ben', 'm', 3)], [entry('f-visits-planned', 'integer', 1)]),
    errors: { 'data.visit': ['1 instance expected (repeat_count), not 0'] },
  },
  {
    title: 'skips required answers in a draft',
    entries: submission([member('Ana', 'f', 30, pregnant('yes'))]),
    options: { draft: true },
    errors: {},
  },
  {
    title: 'still applies constraints in a draft',
    entries: submission([member('Old', 'm', 130)]),
    options: { draft: true },
    errors: { 'data.2.value.0.2.value': ['Age must be between 0 and 120'] },
  },
  {
    title: 'refuses a field of a repeat sent at the top level',
    entries: [...submission([member('Ben', 'm', 3)]), entry('f-age', 'integer', 3)],
    errors: { 'data.3.field_uuid': ['age belongs in the instances of repeat member'] },
  },
  {
    title: 'refuses a repeat value that is not a list of instances',
    entries: [entry('f-country', 'select_one', 'fr'), entry('f-member', 'repeat', 'Ana')],
    errors: {
      'data.1.value': ['member is a repeat: its value is an array of instances, each an array of entries'],
    },
  },
  {
    title: 'refuses an entry for a note',
    entries: [...submission([member('Ben', 'm', 3)]), entry('f-intro', 'note', 'x')],
    errors: { 'data.3.field_uuid': ['intro is a note, which has no entry'] },
  },
];

describe('form-logic validate: the rules of the form model', () => {
  for (const c of cases) {
    it(c.title, () => {
      expect(form.validate(c.entries, { now: Date.UTC(2026, 0, 1), ...c.options }).errors).to.deep.equal(
        c.errors,
      );
    });
  }
});

describe('form-logic validate: calculations', () => {
  const valueOf = (entries: FormEntry[], uuid: string): unknown =>
    entries.find((e) => e.field_uuid === uuid)?.value;

  it('recomputes a calculate value the client sent and adds the missing ones', () => {
    const { entries, errors } = form.validate(
      submission([member('Ana', 'f', 50), member('Ben', 'm', 20)], [entry('f-members', 'calculate', '99')]),
    );
    expect(errors).to.deep.equal({});
    expect(valueOf(entries, 'f-members')).to.equal('2');
    expect(valueOf(entries, 'f-total-age')).to.equal('70');
    expect(valueOf(entries, 'f-mean-age')).to.equal('35');
  });

  it('computes a chain inside each instance with position(..)', () => {
    const { entries } = form.validate(submission([member('Ana', 'f', 50), member('Ben', 'm', 2)]));
    const instances = valueOf(entries, 'f-member') as FormEntry[][];
    const table = instances.map((i) => [
      valueOf(i, 'f-is-head'),
      valueOf(i, 'f-age-months'),
      valueOf(i, 'f-age-text'),
    ]);
    expect(table).to.deep.equal([
      ['yes', '600', 'Ana: 600 months'],
      ['no', '24', 'Ben: 24 months'],
    ]);
  });

  it('keeps the client entries in their order, calculations appended', () => {
    const { entries } = form.validate(submission([member('Ben', 'm', 2)]));
    expect(entries.map((e) => e.field_uuid)).to.deep.equal([
      'f-country',
      'f-city',
      'f-member',
      'f-members',
      'f-total-age',
      'f-mean-age',
    ]);
  });
});
