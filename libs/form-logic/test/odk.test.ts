import { expect } from 'chai';
import { clearDateCache, compile, nodes, type EvaluationContext } from '@fieldhouse/form-logic';
import { CLOCK, groups, type Case } from './odk-cases.ts';
import { unsupported } from './odk-unsupported.ts';

function contextOf(c: Case): EvaluationContext {
  return {
    resolve: (name) => {
      const answer = c.answers?.[name];
      return Array.isArray(answer) ? nodes(answer) : (answer ?? '');
    },
    current: c.current ?? '',
    now: CLOCK,
  };
}

describe('ODK Web Forms XPath cases (America/Phoenix)', () => {
  let zone: string | undefined;
  before(() => {
    zone = process.env.TZ;
    process.env.TZ = 'America/Phoenix';
    clearDateCache();
  });
  after(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    clearDateCache();
  });

  for (const group of groups) {
    describe(`${group.title} (${group.source})`, () => {
      for (const c of group.cases) {
        it(`${c.expression} → ${JSON.stringify(Object.values(c.expected)[0] ?? '')}`, () => {
          const compiled = compile(c.expression);
          if (!compiled.ok) expect.fail(compiled.error.message);
          const { expression } = compiled;
          const context = contextOf(c);
          const expected = c.expected;
          if ('string' in expected) expect(expression.evaluateText(context)).to.equal(expected.string);
          else if ('boolean' in expected)
            expect(expression.evaluateBoolean(context)).to.equal(expected.boolean);
          else if ('number' in expected) {
            const value = expression.evaluateNumber(context);
            if (Number.isNaN(expected.number)) expect(value).to.be.NaN;
            else expect(value).to.equal(expected.number);
          } else if ('rounded' in expected) {
            expect(expression.evaluateNumber(context).toFixed(expected.digits)).to.equal(
              expected.rounded.toFixed(expected.digits),
            );
          } else expect(expression.evaluateText(context)).to.match(expected.matches);
        });
      }
    });
  }

  describe('cases the engine refuses at compile time, as documented (test/odk-unsupported.ts)', () => {
    for (const c of unsupported.filter((u) => u.refused)) {
      it(`${c.expression} is refused: ${c.reason}`, () => {
        expect(compile(c.expression).ok).to.equal(false);
      });
    }
  });
});
