import { expect } from 'chai';
import { compileForm, formTree, type FlatField, type FormError, type FormNode } from '@fieldhouse/form-logic';
import { household } from './form-fixture.ts';

const node = (name: string, type: string, more: Partial<FormNode> = {}): FormNode => ({
  name,
  type,
  uuid: `u-${name}`,
  ...more,
});

/** The errors of compiling `nodes`, without positions (checked separately). */
function errorsOf(nodes: FormNode[], languages?: string[]): Omit<FormError, 'position'>[] {
  const result = compileForm({ nodes, languages: languages ?? null });
  if (result.ok) return [];
  return result.errors.map(({ position: _position, ...rest }) => rest);
}

interface Case {
  title: string;
  nodes: FormNode[];
  languages?: string[];
  errors: Omit<FormError, 'position'>[];
}

const cases: Case[] = [
  {
    title: 'names an unknown reference with its field, property and column',
    nodes: [node('age', 'integer'), node('q', 'text', { relevant: '${agee} > 3' })],
    errors: [
      {
        field: 'q',
        property: 'relevant',
        code: 'unknown_reference',
        message: 'relevant: ${agee} names no field of this form at column 1',
      },
    ],
  },
  {
    title: 'names a syntax error of a constraint',
    nodes: [node('age', 'integer', { constraint: '. > > 3' })],
    errors: [
      {
        field: 'age',
        property: 'constraint',
        code: 'syntax',
        message: 'constraint: Unexpected ">" at column 5: expected a value',
      },
    ],
  },
  {
    title: 'names an unknown function in a calculation',
    nodes: [node('c', 'calculate', { calculation: 'explode(1)' })],
    errors: [
      {
        field: 'c',
        property: 'calculation',
        code: 'unknown_function',
        message: 'calculation: explode() is not a known function at column 1',
      },
    ],
  },
  {
    title: 'refuses a cycle between two calculations',
    nodes: [
      node('a', 'calculate', { calculation: '${b} + 1' }),
      node('b', 'calculate', { calculation: '${a} * 2' }),
    ],
    errors: [
      {
        field: 'a',
        property: 'calculation',
        code: 'cycle',
        message: 'calculation: a cycle of references: a (calculation) → b (calculation) → a (calculation)',
      },
    ],
  },
  {
    title: 'refuses a calculation that reads itself',
    nodes: [node('a', 'calculate', { calculation: '${a} + 1' })],
    errors: [
      {
        field: 'a',
        property: 'calculation',
        code: 'cycle',
        message: 'calculation: a cycle of references: a (calculation) → a (calculation)',
      },
    ],
  },
  {
    title: 'refuses a relevance that depends on a calculation it makes irrelevant',
    nodes: [node('c', 'calculate', { calculation: '1', relevant: '${c} = 1' })],
    errors: [
      {
        field: 'c',
        property: 'relevant',
        code: 'cycle',
        message: 'relevant: a cycle of references: c (relevant) → c (calculation) → c (relevant)',
      },
    ],
  },
  {
    title: 'refuses required with required_if',
    nodes: [node('a', 'text', { required: true, required_if: 'true()' })],
    errors: [
      {
        field: 'a',
        property: 'required_if',
        code: 'invalid',
        message: 'required and required_if cannot both be set',
      },
    ],
  },
  {
    title: 'refuses a calculate without calculation and a calculation elsewhere',
    nodes: [node('c', 'calculate'), node('t', 'text', { calculation: '1' })],
    errors: [
      {
        field: 'c',
        property: 'calculation',
        code: 'invalid',
        message: 'a calculate field needs a calculation',
      },
      {
        field: 't',
        property: 'calculation',
        code: 'invalid',
        message: 'only calculate fields have a calculation',
      },
    ],
  },
  {
    title: 'refuses choice_filter on a text field',
    nodes: [node('t', 'text', { choice_filter: 'true()' })],
    errors: [
      {
        field: 't',
        property: 'choice_filter',
        code: 'invalid',
        message: 'only select_one and select_multiple fields have a choice_filter',
      },
    ],
  },
  {
    title: 'refuses repeat_count with min_repeats, and min above max',
    nodes: [
      node('r', 'repeat', { repeat_count: 3, min_repeats: 1 }),
      node('s', 'repeat', { min_repeats: 4, max_repeats: 2 }),
    ],
    errors: [
      {
        field: 'r',
        property: 'repeat_count',
        code: 'invalid',
        message: 'repeat_count excludes min_repeats and max_repeats',
      },
      {
        field: 's',
        property: 'min_repeats',
        code: 'invalid',
        message: 'min_repeats must not exceed max_repeats',
      },
    ],
  },
  {
    title: 'refuses an appearance outside the documented set',
    nodes: [node('t', 'text', { appearance: 'sparkly' })],
    errors: [
      {
        field: 't',
        property: 'appearance',
        code: 'invalid',
        message: 'appearance must be one of minimal, horizontal, likert, multiline, numbers, field-list',
      },
    ],
  },
  {
    title: 'refuses a translation into a language the version does not declare',
    nodes: [node('t', 'text', { translations: { de: { label: 'Name' } } })],
    languages: ['en', 'fr'],
    errors: [
      {
        field: 't',
        property: 'translations',
        code: 'invalid',
        message: "de is not one of the version's languages",
      },
    ],
  },
  {
    title: 'refuses a name used twice across groups',
    nodes: [node('a', 'text'), node('g', 'group', { children: [node('a', 'integer')] })],
    errors: [{ field: 'a', property: 'name', code: 'duplicate_name', message: 'the name a is used twice' }],
  },
  {
    title: 'accepts a choice_filter reading a choice property and an answer',
    nodes: [
      node('country', 'select_one', { choices: [{ value: 'fr', label: 'France' }] }),
      node('city', 'select_one', {
        choice_filter: 'country = ${country} and starts-with(name, "p")',
        choices: [{ value: 'paris', label: 'Paris', properties: { country: 'fr' } }],
      }),
    ],
    errors: [],
  },
];

describe('form-logic compileForm: refusals', () => {
  for (const c of cases) it(c.title, () => expect(errorsOf(c.nodes, c.languages)).to.deep.equal(c.errors));

  it('gives the position of an expression error', () => {
    const result = compileForm({
      nodes: [node('a', 'integer'), node('q', 'text', { relevant: '${a} > 1 and ${b}' })],
    });
    expect(result.ok).to.equal(false);
    if (!result.ok) expect(result.errors[0]!.position).to.deep.equal({ offset: 13, line: 1, column: 14 });
  });

  it('names the position in a choice_filter as written', () => {
    const result = compileForm({
      nodes: [
        node('city', 'select_one', {
          choice_filter: 'country = ${nope}',
          choices: [{ value: 'x', label: 'X' }],
        }),
      ],
    });
    expect(result.ok ? [] : result.errors.map((e) => [e.code, e.position?.column])).to.deep.equal([
      ['unknown_reference', 11],
    ]);
  });
});

describe('form-logic compileForm: order', () => {
  it('orders calculations after those they read', () => {
    const order = household().calculationOrder;
    const before = (a: string, b: string): boolean => order.indexOf(a) < order.indexOf(b);
    expect([
      before('age_months', 'age_text'),
      before('total_age', 'mean_age'),
      before('members', 'mean_age'),
    ]).to.deep.equal([true, true, true]);
  });
});

describe('form-logic formTree', () => {
  const flat = (name: string, type: string, parent?: string, position?: number): FlatField => ({
    name,
    type,
    uuid: `u-${name}`,
    parent: parent ?? null,
    position: position ?? null,
  });
  const shape = (nodes: readonly FormNode[]): unknown =>
    nodes.map((n) => (n.children ? { [n.name]: shape(n.children) } : n.name));

  it('nests fields under their group or repeat, ordered by position', () => {
    const result = formTree([
      flat('b', 'text', 'g', 1),
      flat('a', 'text', 'g', 0),
      flat('g', 'group', undefined, 1),
      flat('first', 'text', undefined, 0),
      flat('c', 'integer', 'r', 0),
      flat('r', 'repeat', 'g', 2),
    ]);
    expect(result.ok ? shape(result.nodes) : result.errors).to.deep.equal([
      'first',
      { g: ['a', 'b', { r: ['c'] }] },
    ]);
  });

  const refusals: { title: string; fields: FlatField[]; messages: string[] }[] = [
    {
      title: 'refuses an unknown parent',
      fields: [flat('a', 'text', 'nope')],
      messages: ['parent nope is not a field of this version'],
    },
    {
      title: 'refuses a parent that is not a group or repeat',
      fields: [flat('t', 'text'), flat('a', 'text', 't')],
      messages: ['parent t is a text, not a group or repeat'],
    },
    {
      title: 'refuses a cycle of groups',
      fields: [flat('g', 'group', 'h'), flat('h', 'group', 'g')],
      messages: [
        'parent h is inside g: groups cannot contain themselves',
        'parent g is inside h: groups cannot contain themselves',
      ],
    },
  ];
  for (const r of refusals)
    it(r.title, () => {
      const result = formTree(r.fields);
      expect(result.ok ? [] : result.errors.map((e) => `${e.property}: ${e.message}`)).to.deep.equal(
        r.messages.map((m) => `parent: ${m}`),
      );
    });
});
