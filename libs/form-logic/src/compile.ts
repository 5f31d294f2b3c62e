/**
 * Compiles an expression once into closures: parse (grammar.peggy), check (references, functions,
 * arity), then build one closure per syntax node. User text is never passed to eval or Function.
 */
import type { Node } from './ast.ts';
import { FUNCTIONS, isEmpty, type FunctionScope } from './functions.ts';
import { arithmetic, compare } from './operators.ts';
import { parse, positionAt, type ExpressionError } from './parse.ts';
import { answerText, NodeSet, toBoolean, toNumber, toText, type Answer, type Value } from './values.ts';

/**
 * What an evaluation reads. The caller resolves references, so it applies the form's rules: a
 * `${name}` inside a repeat is the answer in the same (nearest) repeat instance; a field inside a
 * repeat read from outside it is the node-set of its answers in every instance (build it with
 * `nodes([...])`).
 */
export interface EvaluationContext {
  /** The answer(s) of the field `name` (the last step of a path such as `/data/group/name`). */
  resolve(name: string): Answer | NodeSet;
  /** The field's own answer, read by `.`; empty when absent. */
  current?: Answer | NodeSet;
  /** 1-based position of the current repeat instance, read by `position(..)`; 0 when absent. */
  position?: number;
  /** The clock for today() and now(), in milliseconds since the epoch; Date.now() when absent. */
  now?: number;
}

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
  /** Its string value (XPath string()), as a `calculation` or `default` stores it. */
  evaluateText(context: EvaluationContext): string;
  /** Its number value (XPath number()), e.g. for `repeat_count`. */
  evaluateNumber(context: EvaluationContext): number;
}

export type CompileResult = { ok: true; expression: Expression } | { ok: false; error: ExpressionError };

type Evaluator = (ctx: EvaluationContext, scope: FunctionScope) => Value;

class Scope implements FunctionScope {
  private readonly ctx: EvaluationContext;
  constructor(ctx: EvaluationContext) {
    this.ctx = ctx;
  }
  current(): Value {
    return toValue(this.ctx.current);
  }
  position(): number {
    return this.ctx.position ?? 0;
  }
  now(): number {
    return this.ctx.now ?? Date.now();
  }
}

function toValue(answer: Answer | NodeSet): NodeSet {
  return answer instanceof NodeSet ? answer : new NodeSet([answerText(answer)]);
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

  private reference(name: string, text: string, offset: number): Evaluator {
    if (this.fields && !this.fields.has(name)) {
      throw new CompileError('unknown_reference', `${text} names no field of this form.`, offset);
    }
    if (!this.references.includes(name)) this.references.push(name);
    return (ctx) => toValue(ctx.resolve(name));
  }

  private path(node: Extract<Node, { type: 'path' }>): Evaluator {
    const last = node.steps.at(-1)!;
    if (node.steps.length === 1 && last === '.') return (_ctx, scope) => scope.current();
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
    const name = last.includes(':') ? last.slice(last.indexOf(':') + 1) : last;
    return this.reference(name, node.text, node.start);
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
        return this.reference(node.name, node.text, node.start);
      case 'path':
        return this.path(node);
      case 'negate': {
        const operand = this.compile(node.operand);
        return (ctx, scope) => -toNumber(operand(ctx, scope));
      }
      case 'union': {
        const operands = node.operands.map((o) => {
          if (o.type !== 'ref' && o.type !== 'path') {
            throw new CompileError('argument', 'Only references can be joined with |.', o.start);
          }
          return this.compile(o);
        });
        return (ctx, scope) => new NodeSet(operands.flatMap((o) => (o(ctx, scope) as NodeSet).values));
      }
      case 'binary':
        return this.binary(node);
      case 'call':
        return this.call(node);
    }
  }

  private binary(node: Extract<Node, { type: 'binary' }>): Evaluator {
    const left = this.compile(node.left);
    const right = this.compile(node.right);
    const op = node.op;
    switch (op) {
      case 'or':
        return (ctx, scope) => toBoolean(left(ctx, scope)) || toBoolean(right(ctx, scope));
      case 'and':
        return (ctx, scope) => toBoolean(left(ctx, scope)) && toBoolean(right(ctx, scope));
      case '=':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return (ctx, scope) => compare(op, left(ctx, scope), right(ctx, scope));
      default:
        return (ctx, scope) => arithmetic(op, toNumber(left(ctx, scope)), toNumber(right(ctx, scope)));
    }
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
      return (_ctx, scope) => scope.position();
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
    const args = node.args.map((a) => this.compile(a));
    if (name === 'if') {
      const [test, then, otherwise] = args as [Evaluator, Evaluator, Evaluator];
      return (ctx, scope) => (toBoolean(test(ctx, scope)) ? then(ctx, scope) : otherwise(ctx, scope));
    }
    if (name === 'coalesce') {
      const [first, second] = args as [Evaluator, Evaluator];
      return (ctx, scope) => {
        const value = first(ctx, scope);
        return isEmpty(value) ? second(ctx, scope) : value;
      };
    }
    const call = spec.call;
    switch (args.length) {
      case 0:
        return (_ctx, scope) => call([], scope);
      case 1: {
        const a0 = args[0]!;
        return (ctx, scope) => call([a0(ctx, scope)], scope);
      }
      case 2: {
        const [a0, a1] = args as [Evaluator, Evaluator];
        return (ctx, scope) => call([a0(ctx, scope), a1(ctx, scope)], scope);
      }
      default:
        return (ctx, scope) =>
          call(
            args.map((a) => a(ctx, scope)),
            scope,
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
  const evaluate = (context: EvaluationContext): Value => root(context, new Scope(context));
  return {
    ok: true,
    expression: {
      source,
      references,
      evaluate,
      evaluateBoolean: (context) => toBoolean(evaluate(context)),
      evaluateText: (context) => toText(evaluate(context)),
      evaluateNumber: (context) => toNumber(evaluate(context)),
    },
  };
}
