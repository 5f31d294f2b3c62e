import type { Node } from './ast.ts';
import { parse as parseGenerated, SyntaxError as GeneratedSyntaxError } from './grammar.generated.ts';

/** Where in the expression text a problem lies: 0-based `offset`, 1-based `line` and `column`. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/** A user error in an expression: a stable `code`, an English `message`, and where it is. */
export interface ExpressionError {
  code: 'syntax' | 'unknown_reference' | 'unknown_function' | 'arity' | 'argument' | 'unsupported';
  message: string;
  position: Position;
}

export type ParseResult = { ok: true; ast: Node } | { ok: false; error: ExpressionError };

interface PeggyLocation {
  start: { offset: number; line: number; column: number };
}
interface PeggyExpectation {
  type: string;
  description?: string;
  text?: string;
}
interface PeggyError {
  location: PeggyLocation;
  expected: PeggyExpectation[] | null;
  found: string | null;
}

/** Position of a 0-based offset in `source` (lines split on \n). */
export function positionAt(source: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}

const LITERAL_NAMES: Record<string, string> = {
  and: 'an operator',
  or: 'an operator',
  '|': 'an operator',
  '-': 'a value',
};

const order = (name: string): number =>
  name === 'a value' ? 0 : name === 'an operator' ? 1 : name === 'the end of the expression' ? 3 : 2;

function describeExpected(expected: PeggyExpectation[] | null): string {
  const names = new Set<string>();
  for (const e of expected ?? []) {
    if (e.type === 'end') names.add('the end of the expression');
    else if (e.type === 'other' && e.description && e.description !== 'whitespace') names.add(e.description);
    else if (e.type === 'literal' && e.text) names.add(LITERAL_NAMES[e.text] ?? `"${e.text}"`);
  }
  const values = ['a number', 'a string', 'a field', 'a ${name} reference', '"("', 'a value'];
  if (values.some((v) => names.has(v))) {
    for (const v of values) names.delete(v);
    names.add('a value');
  }
  const list = [...names].sort((a, b) => order(a) - order(b));
  if (list.length <= 1) return list[0] ?? 'something else';
  return `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

/**
 * Parses an expression into its syntax tree; never throws for user text. A syntax error comes back
 * as `{ ok: false, error: { code: 'syntax', message, position } }`, e.g.
 * `Unexpected ")" at column 7: expected a value.`
 */
export function parse(source: string): ParseResult {
  try {
    return { ok: true, ast: (parseGenerated as (input: string) => Node)(source) };
  } catch (caught) {
    if (!(caught instanceof (GeneratedSyntaxError as unknown as new () => Error))) throw caught;
    const e = caught as unknown as PeggyError;
    const position = positionAt(source, e.location.start.offset);
    const what = e.found === null ? 'The expression ends too early' : `Unexpected "${e.found}"`;
    const where = e.found === null ? '' : ` at column ${position.column}`;
    const message = `${what}${where}: expected ${describeExpected(e.expected)}.`;
    return { ok: false, error: { code: 'syntax', message, position } };
  }
}
