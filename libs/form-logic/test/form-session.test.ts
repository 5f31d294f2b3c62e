import { expect } from 'chai';
import { compileForm, formTree } from '@fieldhouse/form-logic';
import { household } from './form-fixture.ts';

const form = household();
const NOW = Date.UTC(2026, 0, 1);

describe('form-logic evaluate', () => {
  const state = form.evaluate(
    {
      country: 'ke',
      member: [
        { member_name: 'Ana', sex: 'f', age: 30 },
        { member_name: 'Ben', sex: 'm', age: 30 },
      ],
      visits_planned: 3,
    },
    { now: NOW },
  );

  it('gives the relevance of each instance by path (nearest-instance rule)', () => {
    expect([
      state.nodes['member.0.pregnancy']!.relevant,
      state.nodes['member.1.pregnancy']!.relevant,
    ]).to.deep.equal([true, false]);
  });

  it('inherits a group relevance into its fields, and required only where relevant', () => {
    const [ana, ben] = [state.nodes['member.0.pregnant']!, state.nodes['member.1.pregnant']!];
    expect([ana.relevant, ana.required, ben.relevant, ben.required]).to.deep.equal([
      true,
      true,
      false,
      false,
    ]);
  });

  it('gives the calculations by path', () => {
    expect(state.values).to.deep.equal({
      'member.0.is_head': 'yes',
      'member.0.age_months': '360',
      'member.0.age_text': 'Ana: 360 months',
      'member.1.is_head': 'no',
      'member.1.age_months': '360',
      'member.1.age_text': 'Ben: 360 months',
      members: '2',
      total_age: '60',
      mean_age: '30',
    });
  });

  it('narrows the choices of a cascading select', () => {
    expect(state.nodes.city!.choices!.map((c) => c.value)).to.deep.equal(['nairobi']);
  });

  it('gives repeat bounds: open-ended and from repeat_count', () => {
    expect([state.nodes.member!.repeat, state.nodes.visit!.repeat]).to.deep.equal([
      { count: null, min: 1, max: 10, instances: 2 },
      { count: 3, min: 3, max: 3, instances: 0 },
    ]);
  });

  it('marks calculations read-only and a failed constraint invalid', () => {
    const old = form.evaluate({ member: [{ age: 130 }] }, { now: NOW });
    expect([old.nodes['member.0.age']!.valid, old.nodes['member.0.age_months']!.readOnly]).to.deep.equal([
      false,
      true,
    ]);
  });

  it('converts entries to answers and back', () => {
    const entries = form.entriesFromAnswers({ country: 'fr', member: [{ member_name: 'Ana', age: 3 }] });
    expect(form.answersFromEntries(entries)).to.deep.equal({
      country: 'fr',
      member: [{ member_name: 'Ana', age: 3 }],
    });
  });

  it('starts a new submission with one member instance (min_repeats)', () => {
    expect(form.initialAnswers()).to.deep.equal({ member: [{}], visit: [] });
  });
});

describe('form-logic session: incremental changes', () => {
  const start = () =>
    form.session(
      {
        country: 'fr',
        member: [
          { member_name: 'Ana', sex: 'm', age: 30 },
          { member_name: 'Ben', sex: 'm', age: 40 },
        ],
      },
      { now: NOW },
    );

  const steps: { title: string; path: string; value: unknown; values: string[]; nodes: string[] }[] = [
    {
      title: 'a sex change shows the pregnancy group of that instance only',
      path: 'member.0.sex',
      value: 'f',
      values: [],
      nodes: ['member.0.pregnancy', 'member.0.pregnant', 'member.0.months'],
    },
    {
      title: 'an age change recomputes that instance chain and the totals',
      path: 'member.1.age',
      value: 41,
      values: ['member.1.age_months', 'total_age', 'mean_age', 'member.1.age_text'],
      nodes: [],
    },
    {
      title: 'a country change narrows the cities',
      path: 'country',
      value: 'ke',
      values: [],
      nodes: ['city'],
    },
    {
      title: 'an invalid age marks the field invalid',
      path: 'member.0.age',
      value: 500,
      values: ['member.0.age_months', 'total_age', 'mean_age', 'member.0.age_text'],
      nodes: ['member.0.age'],
    },
  ];
  for (const s of steps)
    it(s.title, () => {
      const change = start().set(s.path, s.value);
      expect({ values: [...change.values].sort(), nodes: [...change.nodes].sort() }).to.deep.equal({
        values: [...s.values].sort(),
        nodes: [...s.nodes].sort(),
      });
    });

  it('gives the same state as a full evaluation after a series of changes', () => {
    const session = start();
    session.set('member.0.sex', 'f');
    session.set('member.0.pregnant', 'yes');
    session.set('member.1.age', 12);
    session.set('visits_planned', 2);
    expect(session.state).to.deep.equal(form.evaluate(session.answers, { now: NOW }));
  });

  it('reads one node (nodeAt, calculated) as the whole state gives it, after each change', () => {
    const session = start();
    const agree = () => {
      const whole = form.evaluate(session.answers, { now: NOW });
      for (const [path, node] of Object.entries(whole.nodes))
        expect(session.nodeAt(path), path).to.deep.equal(node);
      for (const [path, value] of Object.entries(whole.values))
        expect(session.calculated(path), path).to.equal(value);
      return Object.keys(whole.nodes).length;
    };
    const counts = [agree()];
    session.set('member.0.sex', 'f');
    session.set('member.0.pregnant', 'yes');
    session.set('country', 'ke');
    counts.push(agree());
    session.addInstance('member', { member_name: 'Cy', sex: 'f', age: 20 });
    counts.push(agree());
    session.removeInstance('member', 0);
    counts.push(agree());
    // Instances came and went, so the paths checked did too.
    expect(counts[2]).to.be.greaterThan(counts[1]!);
    expect(counts[3]).to.equal(counts[1]);
    expect(() => session.nodeAt('member.9.age')).to.throw('no repeat instance at member.9');
  });

  it('adds and removes instances, renumbering position(..)', () => {
    const session = start();
    session.addInstance('member', { member_name: 'Cy', sex: 'm', age: 5 });
    expect(session.state.values['member.2.is_head']).to.equal('no');
    const change = session.removeInstance('member', 0);
    expect([
      change.values.includes('members'),
      session.state.values['member.0.age_text'],
      session.state.values['member.0.is_head'],
    ]).to.deep.equal([true, 'Ben: 480 months', 'yes']);
  });

  it('refuses a path that names no node', () => {
    expect(() => start().set('member.5.age', 3)).to.throw('no repeat instance at member.5');
  });
});

describe('form-logic evaluate: nested repeats', () => {
  const tree = formTree([
    { name: 'member', uuid: 'm', type: 'repeat' },
    { name: 'member_name', uuid: 'mn', type: 'text', parent: 'member' },
    { name: 'child', uuid: 'c', type: 'repeat', parent: 'member' },
    { name: 'child_name', uuid: 'cn', type: 'text', parent: 'child' },
    {
      name: 'child_label',
      uuid: 'cl',
      type: 'calculate',
      parent: 'child',
      calculation: "concat(${child_name}, ' of ', ${member_name}, ' #', position(..))",
    },
    {
      name: 'own_children',
      uuid: 'oc',
      type: 'calculate',
      parent: 'member',
      calculation: 'count(${child_name})',
    },
    { name: 'all_children', uuid: 'ac', type: 'calculate', calculation: 'count(${child_name})' },
  ]);
  const compiled = tree.ok ? compileForm({ nodes: tree.nodes }) : undefined;
  const nested = compiled?.ok ? compiled.form : undefined;
  const state = nested!.evaluate({
    member: [
      { member_name: 'Ana', child: [{ child_name: 'Cy' }, { child_name: 'Di' }] },
      { member_name: 'Ben', child: [{ child_name: 'Ed' }] },
    ],
  });

  it('reads the enclosing instance from an inner one, and counts per instance or overall', () => {
    expect(state.values).to.deep.equal({
      'member.0.child.0.child_label': 'Cy of Ana #1',
      'member.0.child.1.child_label': 'Di of Ana #2',
      'member.0.own_children': '2',
      'member.1.child.0.child_label': 'Ed of Ben #1',
      'member.1.own_children': '1',
      all_children: '3',
    });
  });
});

describe('form-logic relevantAnswers', () => {
  it('leaves out answers to questions that are not relevant, and validate() then accepts them', () => {
    const kept = form.relevantAnswers(
      {
        country: 'fr',
        city: 'paris',
        member: [
          { member_name: 'Ben', sex: 'm', age: 30, pregnant: 'no' },
          { member_name: 'Ana', sex: 'f', age: 30, pregnant: 'no' },
        ],
      },
      { now: NOW },
    );
    const members = kept.member as Record<string, unknown>[];
    expect([members[0]!.pregnant, members[1]!.pregnant]).to.deep.equal([undefined, 'no']);
    expect(form.validate(form.entriesFromAnswers(kept), { now: NOW }).errors).to.deep.equal({});
  });
});
