/**
 * Compiles an expression once into closures: parse (grammar.peggy), check (references, functions,
 * arity), then build one closure per syntax node. User text is never passed to eval or Function.
 */
import type { Node } from './ast.ts';
import { positionOf, toNodeSet, type EvaluationContext } from './context.ts';
import { FUNCTIONS, isEmpty } from './functions.ts';
import { compare, compareAtoms, type ComparisonOperator } from './operators.ts';
import { parse, positionAt, type ExpressionError } from './parse.ts';
import {
  answerText,
  NodeSet,
  textNumber,
  toBoolean,
  toNumber,
  toText,
  type Answer,
  type Value,
} from './values.ts';

export interface CompileOptions {
  /** Field names a reference may name; without it no reference is refused. */
  fields?: Iterable<string>;
}

export interface Expression {
  /** The expression text as given. */
  readonly source: string;
  /** The field names it reads, each once, in order of first appearance (for dependency order). */
  readonly references: readonly string[];
  /** Its value: a string, number, boolean, date or node-set (convert with toText/toNumber/toBoolean). */
  evaluate(context: EvaluationContext): Value;
  /** Its boolean value (XPath boolean()), as `relevant`, `constraint` and `required` use it. */
  evaluateBoolean(context: EvaluationContext): boolean;
  /**
   * Its string value (XPath string()) as a `calculation` or `default` stores it: a number that is
   * NaN (arithmetic on an empty answer) stores as '' as ODK does, not as "NaN".
   */
  evaluateText(context: EvaluationContext): string;
  /** Its number value (XPath number()), e.g. for `repeat_count`. */
  evaluateNumber(context: EvaluationContext): number;
}

export type { EvaluationContext };

export type CompileResult = { ok: true; expression: Expression } | { ok: false; error: ExpressionError };

type Evaluator = (ctx: EvaluationContext) => Value;
type NumberEvaluator = (ctx: EvaluationContext) => number;

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', 'div', 'mod']);

/** number() of an answer as the caller gives it (XPath 1.0 §4.4 on its string value). */
function answerNumber(answer: Answer | NodeSet): number {
  if (typeof answer === 'number') return answer;
  if (typeof answer === 'string') return textNumber(answer);
  if (answer instanceof NodeSet) return toNumber(answer);
  return textNumber(answerText(answer));
}

class CompileError extends Error {
  readonly code: ExpressionError['code'];
  readonly offset: number;
  constructor(code: ExpressionError['code'], message: string, offset: number) {
    super(message);
    this.code = code;
    this.offset = offset;
  }
}

const describe = (name: string, n: number): string =>
  `${name}() takes ${n === 1 ? 'one argument' : n === 0 ? 'no arguments' : `${n} arguments`}`;

function arityMessage(name: string, min: number, max: number, given: number): string {
  const expected =
    min === max
      ? describe(name, min)
      : max === Infinity
        ? `${name}() takes at least ${min} argument${min === 1 ? '' : 's'}`
        : `${name}() takes ${min} to ${max} arguments`;
  return `${expected}, not ${given}.`;
}

class Compiler {
  readonly references: string[] = [];
  private readonly fields: ReadonlySet<string> | undefined;
  constructor(fields: ReadonlySet<string> | undefined) {
    this.fields = fields;
  }

  /** Checks and records the field a reference names. */
  private referenceName(name: string, text: string, offset: number): string {
    if (this.fields && !this.fields.has(name)) {
      throw new CompileError('unknown_reference', `${text} names no field of this form.`, offset);
    }
    if (!this.references.includes(name)) this.references.push(name);
    return name;
  }

  /**
   * How a node reads one field, when it is a reference: `(ctx) => answer`, `.` included; undefined
   * for any other node. Lets comparisons and arithmetic skip building a node-set of one.
   */
  private answerReader(node: Node): ((ctx: EvaluationContext) => Answer | NodeSet) | undefined {
    if (node.type === 'ref') {
      const name = this.referenceName(node.name, node.text, node.start);
      return (ctx) => ctx.resolve(name);
    }
    if (node.type !== 'path') return undefined;
    if (node.steps.length === 1 && node.steps[0] === '.') return (ctx) => ctx.current;
    const name = this.referenceName(this.pathName(node), node.text, node.start);
    return (ctx) => ctx.resolve(name);
  }

  /** The field a path names: its last step (without a prefix); refuses what the subset leaves out. */
  private pathName(node: Extract<Node, { type: 'path' }>): string {
    const last = node.steps.at(-1)!;
    if (
      last === '.' ||
      last === '..' ||
      node.steps.slice(0, -1).some((s) => s !== '..' && !/^[^.]/.test(s))
    ) {
      throw new CompileError(
        'unsupported',
        `The path ${node.text} is not supported: use \${name}.`,
        node.start,
      );
    }
    return last.includes(':') ? last.slice(last.indexOf(':') + 1) : last;
  }

  /** A closure for number(node), without intermediate values where the node allows. */
  private number(node: Node): NumberEvaluator {
    if (node.type === 'number') {
      const value = node.value;
      return () => value;
    }
    if (node.type === 'negate') {
      const operand = this.number(node.operand);
      return (ctx) => -operand(ctx);
    }
    if (node.type === 'binary' && ARITHMETIC.has(node.op)) {
      const left = this.number(node.left);
      const right = this.number(node.right);
      switch (node.op) {
        case '+':
          return (ctx) => left(ctx) + right(ctx);
        case '-':
          return (ctx) => left(ctx) - right(ctx);
        case '*':
          return (ctx) => left(ctx) * right(ctx);
        case 'div':
          return (ctx) => left(ctx) / right(ctx);
        default:
          return (ctx) => left(ctx) % right(ctx);
      }
    }
    const read = this.answerReader(node);
    if (read) return (ctx) => answerNumber(read(ctx));
    const value = this.compile(node);
    return (ctx) => toNumber(value(ctx));
  }

  compile(node: Node): Evaluator {
    switch (node.type) {
      case 'number': {
        const value = node.value;
        return () => value;
      }
      case 'string': {
        const value = node.value;
        return () => value;
      }
      case 'ref':
      case 'path': {
        const read = this.answerReader(node)!;
        return (ctx) => toNodeSet(read(ctx));
      }
      case 'negate':
        return this.number(node);
      case 'union': {
        const operands = node.operands.map((o) => {
          if (o.type !== 'ref' && o.type !== 'path') {
            throw new CompileError('argument', 'Only references can be joined with |.', o.start);
          }
          return this.compile(o);
        });
        return (ctx) => new NodeSet(operands.flatMap((o) => (o(ctx) as NodeSet).values));
      }
      case 'binary':
        return this.binary(node);
      case 'call':
        return this.call(node);
    }
  }

  private binary(node: Extract<Node, { type: 'binary' }>): Evaluator {
    const op = node.op;
    if (op === 'or' || op === 'and') {
      const left = this.compile(node.left);
      const right = this.compile(node.right);
      return op === 'or'
        ? (ctx) => toBoolean(left(ctx)) || toBoolean(right(ctx))
        : (ctx) => toBoolean(left(ctx)) && toBoolean(right(ctx));
    }
    if (op === '+' || op === '-' || op === '*' || op === 'div' || op === 'mod') return this.number(node);
    const fast = this.compareWithLiteral(op, node.left, node.right);
    if (fast) return fast;
    const left = this.compile(node.left);
    const right = this.compile(node.right);
    return (ctx) => compare(op, left(ctx), right(ctx));
  }

  /**
   * `${name} op literal` (or the reverse), the commonest comparison: when the caller gives one
   * answer, it is compared as a single node's string value (XPath 1.0 §3.4) without a node-set.
   */
  private compareWithLiteral(op: ComparisonOperator, left: Node, right: Node): Evaluator | undefined {
    if (right.type === 'number' || right.type === 'string') {
      const read = this.answerReader(left);
      if (!read) return undefined;
      const literal = right.value;
      return (ctx) => {
        const answer = read(ctx);
        return answer instanceof NodeSet
          ? compare(op, answer, literal)
          : compareAtoms(op, answerText(answer), literal);
      };
    }
    if (left.type === 'number' || left.type === 'string') {
      const read = this.answerReader(right);
      if (!read) return undefined;
      const literal = left.value;
      return (ctx) => {
        const answer = read(ctx);
        return answer instanceof NodeSet
          ? compare(op, literal, answer)
          : compareAtoms(op, literal, answerText(answer));
      };
    }
    return undefined;
  }

  /**
   * An argument of a function that reads only its string or number value: a single answer is
   * passed as its text (the same string and number value as a node-set of one, without one).
   */
  private textArgument(node: Node): Evaluator {
    const read = this.answerReader(node);
    if (!read) return this.compile(node);
    return (ctx) => {
      const answer = read(ctx);
      return answer instanceof NodeSet ? answer : answerText(answer);
    };
  }

  private call(node: Extract<Node, { type: 'call' }>): Evaluator {
    const name = node.name === 'jr:position' ? 'position' : node.name;
    const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!spec)
      throw new CompileError('unknown_function', `${node.name}() is not a known function.`, node.start);
    const given = node.args.length;
    if (given < spec.min || given > spec.max) {
      throw new CompileError('arity', arityMessage(node.name, spec.min, spec.max, given), node.start);
    }
    if (name === 'position') {
      const target = node.args[0];
      if (target && !(target.type === 'path' && target.text === '..')) {
        throw new CompileError(
          'unsupported',
          'position() takes .. (the repeat instance) or nothing.',
          target.start,
        );
      }
      return (ctx) => positionOf(ctx);
    }
    for (const i of spec.nodeSetArgs ?? []) {
      const a = node.args[i]!;
      if (
        a.type !== 'ref' &&
        a.type !== 'path' &&
        a.type !== 'union' &&
        !(a.type === 'call' && a.name === 'if')
      ) {
        throw new CompileError(
          'argument',
          `${node.name}() takes a field reference such as \${name}.`,
          a.start,
        );
      }
    }
    const args = node.args.map((a) => (spec.truthArgs ? this.compile(a) : this.textArgument(a)));
    if (name === 'if') {
      const [test, then, otherwise] = args as [Evaluator, Evaluator, Evaluator];
      return (ctx) => (toBoolean(test(ctx)) ? then(ctx) : otherwise(ctx));
    }
    if (name === 'coalesce') {
      const [first, second] = args as [Evaluator, Evaluator];
      return (ctx) => {
        const value = first(ctx);
        return isEmpty(value) ? second(ctx) : value;
      };
    }
    const call = spec.call;
    switch (args.length) {
      case 0:
        return (ctx) => call([], ctx);
      case 1: {
        const a0 = args[0]!;
        return (ctx) => call([a0(ctx)], ctx);
      }
      case 2: {
        const [a0, a1] = args as [Evaluator, Evaluator];
        return (ctx) => call([a0(ctx), a1(ctx)], ctx);
      }
      default:
        return (ctx) =>
          call(
            args.map((a) => a(ctx)),
            ctx,
          );
    }
  }
}

/**
 * Compiles an expression of the XLSForm / ODK XPath subset (docs/form-logic.md). Never throws for
 * user text: a syntax error, a reference to a field not in `options.fields`, an unknown function,
 * a wrong number of arguments or an unsupported construct comes back as `{ ok: false, error }`
 * with a `code`, an English `message` and the `position` (0-based offset, 1-based line/column).
 */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  const parsed = parse(source);
  if (!parsed.ok) return parsed;
  const compiler = new Compiler(options.fields ? new Set(options.fields) : undefined);
  let root: Evaluator;
  try {
    root = compiler.compile(parsed.ast);
  } catch (caught) {
    if (!(caught instanceof CompileError)) throw caught;
    return {
      ok: false,
      error: { code: caught.code, message: caught.message, position: positionAt(source, caught.offset) },
    };
  }
  const references = Object.freeze(compiler.references);
  const evaluate = (context: EvaluationContext): Value => root(context);
  return {
    ok: true,
    expression: {
      source,
      references,
      evaluate,
      evaluateBoolean: (context) => toBoolean(evaluate(context)),
      evaluateText: (context) => {
        const value = evaluate(context);
        return typeof value === 'number' && Number.isNaN(value) ? '' : toText(value);
      },
      evaluateNumber: (context) => toNumber(evaluate(context)),
    },
  };
}
