/**
 * ODK Web Forms test cases (packages/xpath/test/**) for the functions the issue names that this
 * engine does not support, each with the reason. `refused`: compile() returns an error for it
 * (checked by odk.test.ts); otherwise it compiles but answers differently, as stated.
 */
export interface Unsupported {
  source: string;
  expression: string;
  reason: string;
  refused: boolean;
}

const XFORMS = 'packages/xpath/test/xforms';
const NATIVE = 'packages/xpath/test/native';
const explode =
  'Unknown functions (here explode-a() ... explode-d()) are compile errors, even in a branch never taken.';

export const unsupported: Unsupported[] = [
  ...[
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", "C") )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", true() or false()) )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", false() or true()) )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", false() and true()) )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", true() and false()) )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", false() and false()) )',
    'if( false() and explode-a(), "A", if(false() and explode-b(), "B", true() and true()) )',
    'if( true() or true() and explode-a(), "A", if(true() or true() and explode-b(), true() or true() and explode-c(), true() or true() and explode-d()) )',
  ].map((expression) => ({ source: `${XFORMS}/if.test.ts`, expression, reason: explode, refused: true })),
  ...[
    'if(. != "0" and /div/div[@id="FunctionCheckListCaseEmpty"] != "", "yes", "no")',
    'if(false(), "yes", concat(/div/div[@id="FunctionChecklistCaseNo"], "-no"))',
  ].map((expression) => ({
    source: `${XFORMS}/if.test.ts`,
    expression,
    reason: 'Predicates ([...]) are not part of the subset: forms name fields with ${name}.',
    refused: true,
  })),
  ...[
    'sum(*)',
    'min(*)',
    'max(node())',
    'number(self::node())',
    'string(attribute::node()[1])',
    'boolean(//xhtml:article)',
  ].map((expression) => ({
    source: `${NATIVE}/number.test.ts, ${XFORMS}/min.test.ts, ${XFORMS}/max.test.ts, ${NATIVE}/string.test.ts`,
    expression,
    reason:
      'Axes (self::, attribute::), node tests (node(), *) and // are not part of the subset; use ${name} or `.`.',
    refused: true,
  })),
  ...['1mod1', '1 mod1', '1div1', '1 div1'].map((expression) => ({
    source: `${NATIVE}/number-operator.test.ts`,
    expression,
    reason:
      'An operator name run into the number after it (`mod1`) reads as a name, as XPath 1.0 §3.7 lexes it; ODK accepts it.',
    refused: true,
  })),
  ...['/data/p[1] + /data/p[2]', '/data/p[4] - /data/p[2]', '/data/p[2] * /data/p[3]'].map((expression) => ({
    source: `${NATIVE}/infix-operators.test.ts`,
    expression,
    reason:
      'Predicates ([...]) are not part of the subset (these stand for 12 spacing variants of the same three sums).',
    refused: true,
  })),
  {
    source: `${XFORMS}/position.test.ts`,
    expression: 'position(../..)',
    reason:
      'position() takes `..` (the current repeat instance) or nothing; outer repeats are not addressed.',
    refused: true,
  },
  {
    source: `${XFORMS}/int.test.ts`,
    expression: 'int(7.922021953507237e-12)',
    reason: 'Number literals with an exponent are not XPath (ODK refuses them too).',
    refused: true,
  },
  ...[
    ['number("2026-08-27T08:27:00.000+07:00")', '20692', '20692.0604...'],
    ['number("2026-10-28T19:23:00.000+07:00")', '20754', '20754.5159...'],
    ['number("1970-01-01")', '0', '0.2916...'],
    ['number("1970-01-02")', '1', '1.2916...'],
    ['number("1969-12-31")', '-1', '-0.7083...'],
    ['number("2008-09-05")', '14127', '14127.2916...'],
    ['number("1941-12-07")', '-10252', '-10251.7083...'],
  ].map(([expression, odk, ours]) => ({
    source: `${XFORMS}/number.test.ts`,
    expression: expression!,
    reason: `ODK's string of this number is "${odk}" (whole days) while its number value keeps the fraction; here the string is the number's own text, "${ours}".`,
    refused: false,
  })),
  {
    source: `${XFORMS}/format-date.test.ts`,
    expression: "format-date('<a JavaScript Date.toString()>', '%e | %a')",
    reason: 'Dates are ISO 8601 text only (ODK expects this to fail as well).',
    refused: false,
  },
];
